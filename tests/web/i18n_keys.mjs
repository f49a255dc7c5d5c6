// SPDX-License-Identifier: MIT
// tests/web/i18n_keys.mjs: the web page's message catalogs (web/i18n/*.json, docs/WEB.md
// "Languages") against each other and against the code. Fails on: a key of one catalog
// missing from another, a key the code uses (t('ns.key'), a 'ns.key' literal of a
// catalog namespace in web/*.js, data-i18n and data-i18n-attr in web/index.html) missing
// from a catalog, a key no code uses, an empty text, a translation whose {placeholders}
// differ from English's, an English word in a Chinese catalog, a catalog that i18n.js
// does not list or the other way round.
// Usage: node i18n_keys.mjs WEB_DIR. Prints each problem, then "N problems".
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const web = process.argv[2] || new URL('../../web', import.meta.url).pathname;
const problems = [];
const bad = (s) => problems.push(s);

const files = readdirSync(join(web, 'i18n')).filter((f) => f.endsWith('.json')).sort();
const cats = {};
for (const f of files) {
  try {
    cats[f.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(web, 'i18n', f), 'utf8'));
  } catch (e) {
    bad(`${f}: not JSON: ${e.message}`);
  }
}
const en = cats.en;
if (!en) {
  console.log('web/i18n/en.json is missing\n1 problems');
  process.exit(1);
}

// the languages i18n.js offers are the catalogs there are
const i18nJs = readFileSync(join(web, 'i18n.js'), 'utf8');
const langs = JSON.parse((i18nJs.match(/export const LANGS = (\[[^\]]*\])/) || [, '[]'])[1].replace(/'/g, '"'));
for (const l of langs) if (!cats[l]) bad(`i18n.js offers ${l}, but web/i18n/${l}.json is missing`);
for (const l of Object.keys(cats)) if (!langs.includes(l)) bad(`web/i18n/${l}.json is not in i18n.js LANGS`);

// every catalog has every key, with the same placeholders, and no empty text
const holes = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
for (const [l, cat] of Object.entries(cats)) {
  for (const k of Object.keys(en)) {
    if (!(k in cat)) bad(`${l}.json: missing key ${k}`);
    else if (typeof cat[k] !== 'string' || cat[k] === '') bad(`${l}.json: ${k} is empty`);
    else if (holes(cat[k]) !== holes(en[k])) bad(`${l}.json: ${k} has placeholders {${holes(cat[k])}}, English {${holes(en[k])}}`);
  }
  for (const k of Object.keys(cat)) if (!(k in en)) bad(`${l}.json: key ${k} is not in en.json`);
}

// a Chinese catalog says no English: no Latin word but the standards' and the program's
// names (placeholders aside)
const LATIN_OK = new Set(['damier', 'PDN', 'FEN', 'FMJD', 'TimeControl']);
for (const [l, cat] of Object.entries(cats)) {
  if (!l.startsWith('zh')) continue;
  for (const [k, v] of Object.entries(cat)) {
    const words = (String(v).replace(/\{\w+\}/g, '').match(/[A-Za-z][A-Za-z'-]*/g) || []).filter((w) => !LATIN_OK.has(w));
    if (words.length) bad(`${l}.json: ${k} has English words: ${words.join(' ')}`);
  }
}

// the keys the code uses
const used = new Map(); // key -> where
const use = (k, where) => { if (!used.has(k)) used.set(k, where); };
const spaces = new Set(Object.keys(en).map((k) => k.split('.')[0]));
for (const f of readdirSync(web).filter((x) => x.endsWith('.js'))) {
  const src = readFileSync(join(web, f), 'utf8');
  for (const m of src.matchAll(/\bt\(\s*'([^']+)'/g)) use(m[1], f);
  for (const m of src.matchAll(/'([a-z]+)\.([A-Za-z0-9_.+/:-]+)'/g)) if (spaces.has(m[1])) use(`${m[1]}.${m[2]}`, f);
  for (const m of src.matchAll(/\bt\(`/g)) bad(`${f}: a key built at run time (t(\`...\`) at offset ${m.index}): write each key out`);
  for (const m of src.matchAll(/i18nAttr = '([^']+)'/g)) for (const p of m[1].split(/\s+/)) use(p.split(':')[1], f);
}
const html = readFileSync(join(web, 'index.html'), 'utf8');
for (const m of html.matchAll(/data-i18n="([^"]+)"/g)) use(m[1], 'index.html');
for (const m of html.matchAll(/data-i18n-attr="([^"]+)"/g)) {
  for (const p of m[1].split(/\s+/).filter(Boolean)) {
    const [attr, k] = p.split(':');
    if (!attr || !k) bad(`index.html: data-i18n-attr "${p}" is not attr:key`);
    else use(k, 'index.html');
  }
}
for (const [k, where] of used) for (const l of Object.keys(cats)) if (!(k in cats[l])) bad(`${where} uses ${k}, missing from ${l}.json`);
for (const k of Object.keys(en)) if (!used.has(k)) bad(`en.json: ${k} is used nowhere in web/`);

for (const p of problems) console.log(p);
console.log(`${Object.keys(cats).length} catalogs, ${Object.keys(en).length} keys, ${used.size} used; ${problems.length} problems`);
process.exit(problems.length ? 1 : 0);
