// hearth's one script: small enhancements of pages that work without it. Loaded deferred.
(function () {
  'use strict';
  var d = document;
  var meta = d.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute('content') : '';

  // Local times: <time datetime> shows the reader's own time zone.
  d.querySelectorAll('time[datetime]').forEach(function (t) {
    var when = new Date(t.getAttribute('datetime'));
    if (!isNaN(when)) t.textContent = t.dataset.date === 'full' ? when.toLocaleString() : when.toLocaleDateString();
  });

  // Copy buttons: data-copy holds the text, or data-copy-from names an element whose value/text is copied.
  d.querySelectorAll('[data-copy],[data-copy-from]').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      var from = b.dataset.copyFrom && d.getElementById(b.dataset.copyFrom);
      var text = from ? (from.value || from.textContent) : b.dataset.copy;
      if (!navigator.clipboard) return;
      navigator.clipboard.writeText(text).then(function () {
        var was = b.textContent;
        b.textContent = 'Copied';
        setTimeout(function () { b.textContent = was; }, 1500);
      });
    });
  });

  // A running job's log (ol[data-live]: its poll address): new lines are appended; once the job is done the page reloads.
  var live = d.querySelector('ol[data-live]');
  if (live) (function poll(url) {
    setTimeout(function () {
      fetch(url, { credentials: 'same-origin' }).then(function (r) { return r.json(); }).then(function (j) {
        j.lines.forEach(function (t) { live.appendChild(d.createElement('li')).textContent = t; });
        if (j.done) location.reload(); else poll(url.replace(/from=\d+/, 'from=' + j.next));
      }).catch(function () {});
    }, 1500);
  })(live.dataset.live);

  // Markdown preview: a button with data-preview-for (the textarea's id) and data-preview-into.
  d.querySelectorAll('[data-preview-for]').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      var src = d.getElementById(b.dataset.previewFor);
      var out = d.getElementById(b.dataset.previewInto);
      if (!src || !out) return;
      fetch(b.dataset.previewUrl, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'X-Csrf-Token': csrf },
        body: JSON.stringify({ text: src.value, context: b.dataset.previewContext || '' }),
      }).then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (html) { out.innerHTML = html; out.hidden = false; })
        .catch(function () { out.textContent = 'The preview could not be loaded.'; out.hidden = false; });
    });
  });

  // Line ranges: #L10 or #L10-L20 highlights rows; shift-click on a line number extends the range.
  function rows(a, b) {
    d.querySelectorAll('tr.hl').forEach(function (r) { r.classList.remove('hl'); });
    for (var i = Math.min(a, b); i <= Math.max(a, b); i++) {
      var cell = d.getElementById('L' + i);
      var row = cell && cell.closest('tr');
      if (row) row.classList.add('hl');
    }
  }
  function fromHash() {
    var m = /^#L(\d+)(?:-L(\d+))?$/.exec(location.hash);
    if (!m) return null;
    var a = +m[1], b = m[2] ? +m[2] : a;
    rows(a, b);
    return [a, b];
  }
  var current = fromHash();
  window.addEventListener('hashchange', function () { current = fromHash(); });
  d.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#L"]');
    if (!a || !e.shiftKey || !current) return;
    e.preventDefault();
    var n = +a.getAttribute('href').slice(2);
    var lo = Math.min(current[0], n), hi = Math.max(current[0], n);
    history.replaceState(null, '', '#L' + lo + (hi > lo ? '-L' + hi : ''));
    current = [lo, hi];
    rows(lo, hi);
  });

  // A diff line's comment form (pull request files): the form the link's page holds, opened in place.
  d.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a[data-line-form]');
    if (!a || e.shiftKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    fetch(a.href, { credentials: 'same-origin' }).then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) {
        var form = new DOMParser().parseFromString(text, 'text/html').getElementById('comment-form');
        if (!form || !form.closest('tr')) return Promise.reject(0);
        var old = d.getElementById('comment-form');
        if (old && old.closest('tr')) old.closest('tr').remove();
        a.closest('tr').after(d.importNode(form.closest('tr'), true));
        d.getElementById('f-content').focus();
      }).catch(function () { location.href = a.href; });
  });

  // Switchers (branch or tag): a select marked data-autosubmit sends its GET form on change.
  d.querySelectorAll('select[data-autosubmit]').forEach(function (s) {
    s.addEventListener('change', function () { if (s.form) s.form.submit(); });
  });

  // Keyboard shortcuts: "?" lists them, "/" or "s" goes to the search box; off by the user's setting.
  if (d.body.dataset.shortcuts === 'off') return;
  var keys = [['?', 'Show this list'], ['/ or s', 'Search'], ['g then d', 'Go to your dashboard'], ['g then n', 'Go to notifications'], ['Esc', 'Close this list']];
  var dialog;
  function help() {
    if (!dialog) {
      dialog = d.createElement('dialog');
      dialog.setAttribute('aria-labelledby', 'shortcuts-title');
      var h = d.createElement('h2');
      h.id = 'shortcuts-title';
      h.textContent = 'Keyboard shortcuts';
      var dl = d.createElement('dl');
      keys.forEach(function (k) {
        var dt = d.createElement('dt'), kbd = d.createElement('kbd'), dd = d.createElement('dd');
        kbd.textContent = k[0];
        dt.appendChild(kbd);
        dd.textContent = k[1];
        dl.appendChild(dt);
        dl.appendChild(dd);
      });
      var p = d.createElement('p');
      p.textContent = 'Single-key shortcuts can be turned off in your appearance settings.';
      var close = d.createElement('button');
      close.textContent = 'Close';
      close.addEventListener('click', function () { dialog.close(); });
      [h, dl, p, close].forEach(function (n) { dialog.appendChild(n); });
      d.body.appendChild(dialog);
    }
    dialog.showModal();
  }
  var pending = '';
  var root = (d.querySelector('a.brand') || {}).href || '/';
  d.addEventListener('keydown', function (e) {
    var t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var k = e.key;
    if (pending === 'g') {
      pending = '';
      if (k === 'd') location.href = root;
      else if (k === 'n') location.href = root + 'notifications';
      return;
    }
    if (k === '?') { e.preventDefault(); help(); }
    else if (k === '/' || k === 's') {
      var s = d.querySelector('form.search input');
      if (s) { e.preventDefault(); s.focus(); }
    } else if (k === 'g') pending = 'g';
  });
})();
