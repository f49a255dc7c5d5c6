// SPDX-License-Identifier: MIT
// web/jumpboard.js: the star board of Chinese checkers (issue 19) as SVG, for the
// course: the holes where the server's answer (GET /api/jump/position: holes [col,
// row], pegs one letter a hole) puts them. Click (or Enter/Space on) a peg of the side
// to move, then a hole: onTry(from, to) with the holes' names. Tab reaches the pegs of
// the side to move and, once one is chosen, every hole; Escape drops the choice. The
// legal destinations of the chosen peg are marked (the rules core's list).

const NS = 'http://www.w3.org/2000/svg';
const COLOURS = { A: '#c0392b', B: '#2c6fbb', C: '#27ae60', D: '#f1c40f', E: '#8e44ad', F: '#333' };

export class JumpBoard {
  // el: the container; opts.onTry(from, to); opts.label(n, seat): a hole's accessible name
  constructor(el, opts) {
    this.el = el;
    this.opts = opts;
    this.holes = [];
    this.pegs = '';
    this.turn = 'A';
    this.legal = []; // [{from, to, path}]
    this.selected = null;
    this.interactive = true;
    this.last = null; // the move last played ({from, path})
  }

  // the answer of /api/jump/position
  setPosition(d) {
    this.holes = d.holes;
    this.pegs = d.pegs;
    this.turn = d.turn;
    this.legal = d.legal || [];
    this.selected = null;
  }

  click(n) {
    if (!this.interactive) return;
    const seat = this.pegs[n - 1];
    if (seat === this.turn) { // (re)choose a peg of the side to move
      this.selected = this.selected === n ? null : n;
      this.render();
      this.focus(n);
      return;
    }
    if (this.selected && seat === '.') {
      const from = this.selected;
      this.selected = null;
      this.opts.onTry(String(from), String(n));
    }
  }

  focus(n) {
    const g = this.el.querySelector(`[data-hole="${n}"]`);
    if (g) g.focus();
  }

  render() {
    const dx = 20, dy = 34, pad = 22;
    const w = 24 * dx + 2 * pad, h = 16 * dy + 2 * pad;
    const svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('class', 'jumpboard');
    svg.setAttribute('role', 'group');
    const targets = new Set(this.selected ? this.legal.filter((m) => m.from === String(this.selected)).map((m) => m.to) : []);
    const lastPath = new Set(this.last ? [this.last.from, ...this.last.path] : []);
    this.holes.forEach(([c, r], i) => {
      const n = i + 1, seat = this.pegs[i];
      const g = document.createElementNS(NS, 'g');
      g.dataset.hole = n;
      g.dataset.testid = `hole-${n}`;
      const own = seat === this.turn, hole = seat === '.';
      const reachable = this.interactive && (own || (this.selected && hole));
      g.setAttribute('tabindex', reachable ? '0' : '-1');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', this.opts.label(n, hole ? null : seat));
      if (this.selected === n) g.setAttribute('aria-pressed', 'true');
      const x = pad + c * dx, y = pad + r * dy;
      const hc = document.createElementNS(NS, 'circle');
      hc.setAttribute('cx', x); hc.setAttribute('cy', y); hc.setAttribute('r', 8);
      hc.setAttribute('class', `hole${targets.has(String(n)) ? ' target' : ''}${lastPath.has(String(n)) ? ' last' : ''}`);
      g.appendChild(hc);
      if (!hole) {
        const p = document.createElementNS(NS, 'circle');
        p.setAttribute('cx', x); p.setAttribute('cy', y); p.setAttribute('r', 13);
        p.setAttribute('fill', COLOURS[seat] || '#777');
        p.setAttribute('class', `peg${this.selected === n ? ' selected' : ''}`);
        g.appendChild(p);
      }
      const t = document.createElementNS(NS, 'text');
      t.setAttribute('x', x); t.setAttribute('y', y + 4);
      t.setAttribute('class', 'hole-num');
      t.textContent = n;
      g.appendChild(t);
      g.addEventListener('click', () => this.click(n));
      g.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); this.click(n); }
        if (ev.key === 'Escape' && this.selected) { const s = this.selected; this.selected = null; this.render(); this.focus(s); }
      });
      svg.appendChild(g);
    });
    this.el.innerHTML = '';
    this.el.appendChild(svg);
  }
}
