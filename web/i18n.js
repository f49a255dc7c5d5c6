// SPDX-License-Identifier: MIT
// web/i18n.js: the page's languages. Every string the player sees comes from a
// message catalog, web/i18n/LANG.json (a flat object: key -> text with {name}
// placeholders); t(key, params) looks a key up in the current language, then in
// English. The language: the one chosen on the page (localStorage "damier.lang"), else
// the first of the browser's languages (navigator.languages, what it sends as
// Accept-Language) that we have, else English. How to add a string: docs/WEB.md.

export const LANGS = ['en', 'zh-Hans', 'zh-Hant'];
// each language's name in itself, for the switcher (the same in every catalog)
export const LANG_NAMES = { en: 'English', 'zh-Hans': '简体中文', 'zh-Hant': '繁體中文' };

const catalogs = {};
let lang = 'en';

// A BCP 47 tag (zh-CN, zh-Hant-TW, en-GB, ...) to one of LANGS, or null.
export function matchLang(tag) {
  const t = String(tag || '').toLowerCase();
  if (t === 'en' || t.startsWith('en-')) return 'en';
  if (t === 'zh' || t.startsWith('zh-')) {
    // Traditional: the script subtag, or the regions that write it
    if (/^zh-(hant|tw|hk|mo)\b/.test(t) || /-hant\b/.test(t)) return 'zh-Hant';
    return 'zh-Hans';
  }
  return null;
}

export function pickLang(stored, browser) {
  if (LANGS.includes(stored)) return stored;
  for (const tag of browser || []) {
    const l = matchLang(tag);
    if (l) return l;
  }
  return 'en';
}

async function load(l) {
  if (catalogs[l]) return catalogs[l];
  try {
    const res = await fetch(`/i18n/${l}.json`);
    catalogs[l] = res.ok ? await res.json() : {};
  } catch (e) {
    catalogs[l] = {}; // the page still works: English from the HTML, keys elsewhere
  }
  return catalogs[l];
}

export function currentLang() { return lang; }

export function t(key, params) {
  let s = (catalogs[lang] && catalogs[lang][key]) ?? (catalogs.en && catalogs.en[key]);
  if (s === undefined) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
  return s;
}

// The elements marked in the HTML: data-i18n="key" (the text), data-i18n-attr=
// "attr:key attr:key" (aria-label, title, placeholder).
export function applyDom(root = document) {
  // a key with no text (a catalog that did not load) leaves the HTML's English
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const k = el.dataset.i18n;
    if (t(k) !== k) el.textContent = t(k);
  }
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of el.dataset.i18nAttr.split(/\s+/).filter(Boolean)) {
      const [attr, key] = pair.split(':');
      if (t(key) !== key) el.setAttribute(attr, t(key));
    }
  }
  document.documentElement.lang = lang;
  document.title = t('app.title');
}

const listeners = [];
export function onLangChange(fn) { listeners.push(fn); }

export async function setLang(l, remember = true) {
  if (!LANGS.includes(l)) l = 'en';
  await Promise.all([load('en'), load(l)]);
  lang = l;
  if (remember) { try { localStorage.setItem('damier.lang', l); } catch (e) { /* private mode */ } }
  applyDom();
  for (const fn of listeners) fn(l);
}

export async function initLang() {
  let stored = null;
  try { stored = localStorage.getItem('damier.lang'); } catch (e) { /* private mode */ }
  const browser = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  try {
    await setLang(pickLang(stored, browser), false);
  } finally {
    document.documentElement.classList.remove('i18n-loading');
  }
}

// The library's and the server's messages are English (docs/WEB.md); the ones a player
// meets in play are recognised here and said in the page's language, the others shown
// as they are.
const SERVER = [
  [/^illegal move "(.*)": square (\d+) is empty$/, 'err.empty', ['move', 'sq']],
  [/^illegal move "(.*)": square (\d+|[a-l]\d+) holds a piece of the opponent \((White|Black) to move\)$/, 'err.opponent_piece', ['move', 'sq', 'side']],
  [/^illegal move "(.*)": capture is compulsory \(FMJD 4\.1\): (\d+) pieces? can be captured with (.*)$/, 'err.compulsory', ['move', 'n', 'moves']],
  [/^illegal move "(.*)": the majority rule \(FMJD 4\.13\) requires capturing (\d+) pieces?: (.*)$/, 'err.majority', ['move', 'n', 'moves']],
  [/^illegal move "(.*)": the (man|king) on (\d+|[a-l]\d+) cannot move$/, 'err.cannot_move', ['move', 'piece', 'sq']],
  [/^illegal move "(.*)": the (man|king) on (\d+|[a-l]\d+) can play (.*)$/, 'err.can_play', ['move', 'piece', 'sq', 'moves']],
  [/^illegal move "(.*)": (White|Black) has no legal move$/, 'err.no_legal', ['move', 'side']],
  [/^ambiguous move "(.*)": (\d+) legal moves match \((.*)\); give the full capture path$/, 'err.ambiguous', ['move', 'n', 'moves']],
  // the other variants' rules (squares "c3" or numbers)
  [/^illegal move "(.*)": square ([a-l]\d+) is empty$/, 'err.empty', ['move', 'sq']],
  [/^illegal move "(.*)": the piece on (\S+) is not (White|Black)'s$/, 'err.not_own_piece', ['move', 'sq', 'side']],
  [/^illegal move "(.*)": capture is compulsory \(e\.g\. (.*)\)$/, 'err.compulsory_eg', ['move', 'moves']],
  [/^illegal move "(.*)": capture is compulsory: \d+ pieces? can be captured with (.*)$/, 'err.compulsory_eg', ['move', 'moves']],
  // the jumping games' rules core (Chinese checkers)
  [/^move "(.*)": (\d+) cannot reach (\d+)$/, 'err.jump_cannot_reach', ['move', 'from', 'to']],
  [/^move "(.*)": (\d+) to (\d+) is not a jump over one adjacent piece onto the square beyond$/, 'err.jump_not_jump', ['move', 'from', 'to']],
  [/^move "(.*)": (\d+) to (\d+) is not a jump \(the landing square is taken\)$/, 'err.jump_taken', ['move', 'from', 'to']],
  [/^move "(.*)": (\d+) to (\d+) is not a jump \(that square was visited before in this chain\)$/, 'err.jump_visited', ['move', 'from', 'to']],
  [/^move "(.*)": no piece of the side to move on (\d+)$/, 'err.jump_no_piece', ['move', 'sq']],
  [/^illegal move "(.*)"/, 'err.illegal', ['move']],
  [/^it is (white|black)'s move, not yours$/, 'err.not_your_move', ['side']],
  [/^the game is over/, 'err.game_over', []],
  [/^the engine declines/, 'err.engine_declines', []],
  [/^the engine is busy/, 'err.engine_busy', []],
  [/^a spectator's link cannot play$/, 'err.spectator', []],
  [/^the arbiter has paused the clocks/, 'err.paused', []],
  [/not the arbiter's: only the arbiter's key controls the game$/, 'err.not_arbiter', []],
  [/^the arbiter's link cannot play/, 'err.arbiter_cannot_play', []],
  [/^this game has no clock$/, 'err.no_clock', []],
  [/^the clocks are already paused$/, 'err.already_paused', []],
  [/^the clocks are not paused$/, 'err.not_paused', []],
  [/^the game is adjourned/, 'err.adjourned', []],
  [/^wrong key for game/, 'err.wrong_key', []],
  [/^unknown game/, 'err.unknown_game', []],
  [/^there is no move of (yours|that side) to take back$/, 'err.no_takeback', []],
  [/^too many takebacks/, 'err.too_many_takebacks', []],
  [/^connection lost$/, 'err.connection_lost', []],
  [/^not connected$/, 'err.not_connected', []],
];
const WORDS = { White: 'side.White', Black: 'side.Black', white: 'side.White', black: 'side.Black', man: 'piece.man', king: 'piece.king' };

export function serverText(text) {
  const s = String(text || '');
  if (lang === 'en') return s; // the server's own words
  for (const [re, key, names] of SERVER) {
    const m = s.match(re);
    if (!m) continue;
    const params = {};
    names.forEach((n, i) => { params[n] = WORDS[m[i + 1]] ? t(WORDS[m[i + 1]]) : m[i + 1]; });
    return t(key, params);
  }
  return s;
}

// The result's reason as the state gives it (the library's dm_reason_str) to a key.
const REASONS = {
  'no pieces left': 'reason.no_pieces', 'no legal move': 'reason.blocked', resignation: 'reason.resignation',
  'draw by agreement': 'reason.agreement', 'threefold repetition': 'reason.repetition', '25-move rule': 'reason.25',
  '16-move rule': 'reason.16', '5-move rule': 'reason.5', 'loss on time': 'reason.time', forfeit: 'reason.forfeit',
  'no progress rule': 'reason.no_progress', 'no capture rule': 'reason.no_capture', 'material rule': 'reason.material',
  'first king (breakthrough)': 'reason.promotion', 'neither side can win': 'reason.no_win',
  "arbiter's decision": 'reason.arbiter',
};
export const REASON_KEYS = REASONS;

export function reasonText(r) {
  return REASONS[r] ? t(REASONS[r]) : String(r || '');
}
