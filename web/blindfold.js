// SPDX-License-Identifier: MIT
// web/blindfold.js: blindfold play (issue 13; the FMJD rules' blindfold game): the
// player's page hides the board and gives every move as text and, through the
// browser's speech synthesis, aloud; moves are entered in notation. The choice is the
// player's and is kept per game in this browser (localStorage), or given by a link
// (#/game/ID/KEY?blindfold=1). The server keeps the record for the blindfold side.

import { t, currentLang } from './i18n.js';

const gameKey = (id) => `damier.blindfold.${id}`;

// Whether the player chose blindfold play for game id in this browser.
export function blindfoldChosen(id) {
  try { return localStorage.getItem(gameKey(id)) === '1'; } catch (e) { return false; }
}

// Keeps (on) or forgets the blindfold choice for game id.
export function setBlindfold(id, on) {
  try {
    if (on) localStorage.setItem(gameKey(id), '1'); else localStorage.removeItem(gameKey(id));
  } catch (e) { /* private mode: the choice lasts for this page only */ }
}

// Whether moves are spoken (one choice for every game; on unless turned off).
export function speechOn() {
  try { return localStorage.getItem('damier.speak') !== '0'; } catch (e) { return true; }
}
export function setSpeech(on) {
  try { localStorage.setItem('damier.speak', on ? '1' : '0'); } catch (e) { /* as above */ }
}

// A move's text as said aloud, in the page's language: "32-28" as "32 to 28",
// "19x28x37" and "c3:e5" with "takes" between the squares.
export function spokenMove(text) {
  return text.split(/([-x:])/)
    .map((p) => (p === '-' ? ` ${t('blind.to')} ` : p === 'x' || p === ':' ? ` ${t('blind.takes')} ` : p))
    .join('').replace(/\s+/g, ' ').trim();
}

const VOICE = { en: 'en-GB', 'zh-Hans': 'zh-CN', 'zh-Hant': 'zh-TW' };

// Says text through the browser's speech synthesis in the page's language; false
// where the browser has none (the text is still written on the page).
export function speak(text) {
  if (typeof window.speechSynthesis === 'undefined' || typeof window.SpeechSynthesisUtterance === 'undefined') return false;
  const u = new window.SpeechSynthesisUtterance(text);
  u.lang = VOICE[currentLang()] || 'en-GB';
  window.speechSynthesis.speak(u);
  return true;
}
