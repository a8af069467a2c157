// Ask the class: the student's page. It asks the app's server for the question on the projector, draws a
// form from the question's field descriptions alone (so a new question needs no new code here, only a
// new field kind would) and sends the student's answer, which may be changed until the teacher closes it.
// Everything the server sends goes in as text (textContent, createElement): never as HTML.
'use strict';
(() => {
  const POLL_MS = 2000;     // how fresh the question and the count are
  const BACKOFF_MS = 10000; // after a failure: a lost Wi-Fi must not turn 30 phones into a flood
  const FETCH_MS = 8000;    // a request that hangs counts as a failure
  const SENT = 'Answer sent. You can change it until the teacher closes the question.';
  const $ = (id) => document.getElementById(id);

  // Storage can be off (private tabs, blocked site data): the page must still work for this visit.
  const store = (area, key, value) => {
    try {
      if (value === undefined) return window[area].getItem(key);
      if (value === null) window[area].removeItem(key); else window[area].setItem(key, value);
    } catch (e) { /* this visit only */ }
    return null;
  };

  // An anonymous id for this phone, so a changed answer replaces the earlier one instead of adding a vote.
  const device = (() => {
    const kept = store('localStorage', 'attnlab-device');
    if (kept && /^d-[0-9a-f]{16}$/.test(kept)) return kept;
    const bytes = crypto.getRandomValues(new Uint8Array(8)); // works on plain http, unlike crypto.randomUUID
    const made = 'd-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    store('localStorage', 'attnlab-device', made);
    return made;
  })();

  // key: "id#round" of the form on screen; open: null until the state of a new form is applied.
  const S = { key: null, question: null, fields: [], names: false, open: false, sending: false, sent: false,
    timer: null, polling: false, token: new URLSearchParams(location.search).get('t') || store('sessionStorage', 'attnlab-token') };
  if (S.token) store('sessionStorage', 'attnlab-token', S.token); // a reload keeps working

  const el = (tag, cls, text) => {
    const e = Object.assign(document.createElement(tag), { className: cls || '' });
    if (text !== undefined) e.textContent = String(text);
    return e;
  };
  // The status line: `kind` ("sent", "error", "closed", "info") is for styling and the test driver.
  const say = (text, kind) => { $('status').textContent = text; $('status').dataset.kind = kind || 'info'; };

  // One request; resolves to the JSON body or throws an Error whose message is the server's sentence.
  // status 0: no answer at all (no network, or FETCH_MS passed).
  const failure = (text, status) => Object.assign(new Error(text), { status });
  async function api(path, body) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), FETCH_MS);
    const init = { method: body ? 'POST' : 'GET', cache: 'no-store', signal: abort.signal };
    if (body) Object.assign(init, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    try {
      const res = await fetch(path, init).catch(() => { throw failure('No answer.', 0); });
      const data = await res.json().catch(() => null);
      if (!res.ok) throw failure(data && typeof data.error === 'string' ? data.error : 'The server answered HTTP ' + res.status + '.', res.status);
      if (!data || typeof data !== 'object') throw failure('The server sent an answer this page cannot read.', res.status);
      return data;
    } finally { clearTimeout(timer); }
  }
  const withToken = (path) => path + '?t=' + encodeURIComponent(S.token);

  // A button that stays pressed; aria-pressed carries the state for screen readers and for the CSS.
  function toggle(text, value, cls) {
    const b = Object.assign(el('button', 'toggle ' + cls, text), { type: 'button' });
    b.dataset.value = value;
    b.setAttribute('aria-pressed', 'false');
    return b;
  }

  // Field kinds: each draws its controls into `box` and returns value(): the API's string, or null while
  // the student has not answered it. `changed` is called on every edit.
  const KINDS = {
    size(f, box, changed, labelId) {
      const names = Array.isArray(f.names) ? f.names.map(String) : [];
      const input = el('input', 'size');
      Object.assign(input, { type: 'text', inputMode: 'numeric', autocomplete: 'off', spellcheck: false, maxLength: 40 });
      input.setAttribute('autocapitalize', 'off');
      input.setAttribute('aria-labelledby', labelId);
      input.placeholder = names.length ? 'A number, or tap a name' : 'A whole number';
      input.dataset.input = f.name;
      const bad = el('p', 'hint bad', names.length ? 'Type a whole number, or tap a name below.' : 'Type a whole number.');
      const row = el('div', 'names');
      // Tapping the chosen name again clears it, so a wrong tap is easy to undo.
      const buttons = names.map((n) => row.appendChild(toggle(n, n, 'name')));
      buttons.forEach((b) => b.addEventListener('click', () => {
        input.value = input.value.trim() === b.dataset.value ? '' : b.dataset.value;
        sync(); changed();
      }));
      const value = () => { const v = input.value.trim(); return /^\d{1,18}$/.test(v) || names.includes(v) ? v : null; };
      const sync = () => {
        buttons.forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.value === input.value.trim())));
        bad.hidden = input.value.trim() === '' || value() !== null;
        input.setAttribute('aria-invalid', String(!bad.hidden));
      };
      input.addEventListener('input', () => { sync(); changed(); });
      box.append(input, bad, row);
      sync();
      return value;
    },
    'yes-no'(f, box, changed) { return pick([['yes', 'Yes'], ['no', 'No']], box, changed, 'two'); },
    choice(f, box, changed) {
      return pick((Array.isArray(f.choices) ? f.choices : []).map((c, i) => [String(i), c]), box, changed, 'list');
    },
    cells(f, box, changed) {
      const n = Math.max(1, Math.min(32, Math.floor(Number(f.grid)) || 1));
      const picked = new Set();
      box.appendChild(el('p', 'hint', 'Tap cells to choose them. Choosing none is an answer too.'));
      const grid = el('div', 'grid');
      grid.style.setProperty('--n', String(n)); // CSSOM, which the CSP allows (a style attribute it would not)
      // Above the columns "key →"; in the corner "query ↓", over the row numbers.
      grid.append(el('span'), el('span', 'axis key', 'key →'), el('span', 'axis query', 'query ↓'));
      for (let j = 0; j < n; ++j) grid.appendChild(el('span', 'num', j));
      for (let i = 0; i < n; ++i) {
        grid.appendChild(el('span', 'num', i));
        for (let j = 0; j < n; ++j) {
          const id = i + '-' + j;
          const b = toggle('', id, 'cell');
          b.dataset.cell = id;
          b.setAttribute('aria-label', 'query ' + i + ', key ' + j);
          b.addEventListener('click', () => {
            if (!picked.delete(id)) picked.add(id);
            b.setAttribute('aria-pressed', String(picked.has(id))); changed();
          });
          grid.appendChild(b);
        }
      }
      box.appendChild(grid);
      // Sorted row by row, then column by column, as the server's canonical form has them.
      const rank = (c) => { const [i, j] = c.split('-').map(Number); return i * n + j; };
      return () => Array.from(picked).sort((a, b) => rank(a) - rank(b)).join(',');
    },
  };

  // One of several big buttons (yes/no, a choice): like radio buttons, a tap moves the choice.
  function pick(options, box, changed, cls) {
    let chosen = null;
    const row = box.appendChild(el('div', 'choices ' + cls));
    const buttons = options.map(([value, text]) => row.appendChild(toggle(text, value, 'big')));
    buttons.forEach((b) => b.addEventListener('click', () => {
      chosen = b.dataset.value;
      buttons.forEach((o) => o.setAttribute('aria-pressed', String(o === b)));
      changed();
    }));
    return () => chosen;
  }

  // A new question, or a new round of it: an empty form drawn from the field descriptions.
  const keyOf = (q) => q.id + '#' + q.round;
  function build(q) {
    Object.assign(S, { key: keyOf(q), question: { id: q.id, round: q.round }, fields: [], sent: false });
    $('prompt').textContent = q.prompt || '';
    // The settings and the code line the question is answered from: the phone cannot see the projector's.
    $('context').textContent = typeof q.context === 'string' ? q.context : '';
    $('context').hidden = !$('context').textContent;
    $('round').textContent = 'Round ' + q.round + ': vote again';
    $('round').hidden = !(Number(q.round) >= 2);
    const box = $('fields');
    box.textContent = '';
    say('');
    (Array.isArray(q.fields) ? q.fields : []).forEach((f, k) => {
      const set = el('fieldset', 'field');
      Object.assign(set.dataset, { field: f.name, kind: f.kind });
      const legend = set.appendChild(Object.assign(el('legend', 'field-label', f.label || f.name), { id: 'label-' + k }));
      const make = Object.prototype.hasOwnProperty.call(KINDS, f.kind) ? KINDS[f.kind] : null;
      // A kind this page does not know: the form cannot be complete, so say why Send stays off.
      const value = make ? make(f, set, changed, legend.id) : () => null;
      if (!make) say('This page cannot show this question. Reload the page.', 'error');
      S.fields.push({ name: f.name, set, value });
      box.appendChild(set);
    });
    Object.assign($('poll').dataset, { question: q.id, round: q.round });
  }

  // Every edit: a sent answer is not resent by itself (the student presses Send again).
  function changed() {
    if (S.sent) say('You changed your answer. Press Send answer to send it.', 'info');
    S.sent = false;
    refresh();
  }
  function refresh() {
    const complete = S.fields.length > 0 && S.fields.every((f) => f.value() !== null);
    $('send').disabled = !(S.open && complete && !S.sending);
  }

  function setOpen(open) {
    if (open === S.open) return;
    S.open = open;
    S.fields.forEach((f) => { f.set.disabled = !open; });
    $('name').disabled = !open;
    $('closed-note').hidden = open;
    if (!open) say('The teacher closed this question.', 'closed');
    else if ($('status').dataset.kind === 'closed') say('');
    refresh();
  }

  function show(r) {
    $('count').textContent = Number.isFinite(r.answered) ? r.answered + ' answered' : '';
    const asking = (r.state === 'open' || r.state === 'closed') && r.question && typeof r.question === 'object';
    $('poll').hidden = !asking;
    $('waiting').hidden = asking;
    if (!asking) {
      if (S.key !== null) say('');
      return Object.assign(S, { key: null, fields: [], open: false });
    }
    if (keyOf(r.question) !== S.key) { S.open = null; build(r.question); } // null: setOpen below must act
    S.names = r.names === true;
    $('name-box').hidden = !S.names;
    setOpen(r.state === 'open');
  }

  async function poll() {
    if (S.polling) return;
    S.polling = true;
    clearTimeout(S.timer);
    let wait = POLL_MS;
    try {
      // d: the device, so the projector can count the phones that are here before they answer.
      show(await api(withToken('/api/question') + '&d=' + encodeURIComponent(device)));
      $('net').textContent = '';
    } catch (e) {
      if (e.status === 401 || e.status === 403) { S.polling = false; return askForCode(e.message); }
      wait = BACKOFF_MS; // the form and what the student typed stay as they are
      // A 4xx carries the server's sentence; no answer, or a 5xx from the network's middle, is a lost line.
      $('net').textContent = e.status >= 400 && e.status < 500 ? e.message + ' Retrying.' : 'Connection lost, retrying.';
    }
    S.polling = false;
    S.timer = setTimeout(poll, wait);
  }

  // No token, or one the server no longer takes: the room code on the projector gets a new one.
  function askForCode(message) {
    clearTimeout(S.timer);
    S.token = null;
    store('sessionStorage', 'attnlab-token', null);
    if (location.search) history.replaceState(null, '', location.pathname); // a reload must not reuse it
    $('poll').hidden = $('waiting').hidden = true;
    $('join').hidden = false;
    say(message || '', message ? 'error' : 'info');
  }

  $('join').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const code = $('code').value.trim().toUpperCase();
    if (!/^[A-Z0-9]{4,8}$/.test(code)) return say('A room code is 4 to 8 letters or digits.', 'error');
    $('join-go').disabled = true;
    say('Joining…');
    try {
      const r = await api('/api/join', { code });
      if (typeof r.token !== 'string' || r.token === '') throw new Error('The server sent no token. Try again.');
      S.token = r.token;
      store('sessionStorage', 'attnlab-token', r.token);
      $('join').hidden = true;
      say('');
      poll();
    } catch (e) {
      say(e.status === 0 ? 'Cannot reach the teacher’s computer. Check the Wi-Fi and try again.' : e.message, 'error');
    } finally { $('join-go').disabled = false; }
  });

  $('poll').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    refresh();
    if ($('send').disabled) return;
    const answers = {}; // ES2017: no Object.fromEntries
    S.fields.forEach((f) => { answers[f.name] = f.value(); });
    const body = { question: S.question.id, round: S.question.round, device, answers };
    if (S.names && $('name').value.trim()) body.name = $('name').value.trim();
    const key = S.key; // a new question while this one is on its way must not get its "sent"
    S.sending = true;
    refresh();
    say('Sending…');
    try {
      await api(withToken('/api/answer'), body);
      if (key === S.key) { S.sent = true; say(SENT, 'sent'); }
      poll(); // the count now includes this answer
    } catch (e) {
      if (key === S.key) say(e.status === 0 ? 'Connection lost. Your answer was not sent: press Send answer again.' : e.message, 'error');
    } finally { S.sending = false; refresh(); }
    $('status').scrollIntoView({ block: 'nearest' }); // the line under Send is often just off the screen
  });

  // A phone waking from sleep should show the current question at once, not after a backed-off wait.
  document.addEventListener('visibilitychange', () => { if (!document.hidden && S.token) poll(); });

  if (S.token) poll(); else askForCode();
})();
