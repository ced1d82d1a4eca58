//! `form.html`: the sheets as one self-contained page to fill in offline, in any browser:
//! every item with its marked texts, one button per answer and a comment box, and a button
//! per sheet that saves the answers as that sheet's CSV (same columns, answers filled), for
//! `tally`. No server, no request, no file but itself; the answers live in the page until
//! saved.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::format::sheet::{
    header, DetectionRow, FormSheet as SheetData, SheetKind, TranslationRow, DETECTION_ANSWERS,
    TRANSLATION_ANSWERS,
};

/// JSON for a `<script>` element: `<` escaped, so no text can close it.
fn script_json<T: Serialize>(value: &T) -> Result<String> {
    let s = serde_json::to_string(value).map_err(|e| Error::Data(e.to_string()))?;
    Ok(s.replace('<', "\\u003c"))
}

const STYLE: &str = r#"
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60em;padding:1em;color:#222}
h1{font-size:1.4em}h2{font-size:1.2em;margin-top:2em}
.item{border:1px solid #ccc;border-radius:6px;padding:.6em .9em;margin:.8em 0}
.item.done{border-color:#6a6;background:#f6fbf6}
.meta{color:#666;font-size:.85em}
.text{margin:.3em 0}.text b{display:inline-block;min-width:6.5em;color:#555;font-weight:600}
mark.d{background:#ffd54f;padding:0 .15em}mark.h{background:#81d4fa;padding:0 .15em}
.answers label{margin-right:1.2em;white-space:nowrap}
input.comment{width:100%;box-sizing:border-box;margin-top:.3em}
.save{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ddd}
button{font-size:1em;padding:.3em .8em}
"#;

const SCRIPT: &str = r#"
(function () {
  'use strict';
  function esc(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
                    .replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  }
  // [[w]] is the dependent (or the words aligned to it), {{w}} the head; the text's own
  // \ [ ] { } are escaped with \ (format::sheet::parse_marks reads them the same way).
  var KINDS = [['[[', ']]', 'd', 'dependent'], ['{{', '}}', 'h', 'head']];
  function marks(s) {
    var c = Array.from(String(s)), out = '', plain = '', i = 0;
    function at(k, t) { return c[k] === t[0] && c[k + 1] === t[1]; }
    function closer(k, t) {
      while (k < c.length) {
        if (c[k] === '\\') k += 2; else if (at(k, t)) return k; else k++;
      }
      return -1;
    }
    function unescape(v) {
      var o = '', k = 0;
      while (k < v.length) { if (v[k] === '\\' && k + 1 < v.length) k++; o += v[k]; k++; }
      return o;
    }
    while (i < c.length) {
      if (c[i] === '\\' && i + 1 < c.length) { plain += c[i + 1]; i += 2; continue; }
      var found = null;
      KINDS.forEach(function (m) {
        if (!found && at(i, m[0])) { var e = closer(i + 2, m[1]); if (e >= 0) found = [m, e]; }
      });
      if (!found) { plain += c[i]; i++; continue; }
      out += esc(plain); plain = '';
      var m = found[0], w = unescape(c.slice(i + 2, found[1]));
      out += '<mark class="' + m[2] + '">' + (w === ' ' ? '&nbsp;' + m[3] + '&nbsp;' : esc(w)) + '</mark>';
      i = found[1] + 2;
    }
    return out + esc(plain);
  }
  // A cell as format::to_spreadsheet writes it: text a spreadsheet would run as a formula
  // (= + - @ tab CR first, after any ') gets a leading ', numbers excepted.
  function spreadsheet(s) {
    var risky = /^'*[=+\-@\t\r]/.test(s);
    var number = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i.test(s);
    return risky && !number ? "'" + s : s;
  }
  function csvField(v) {
    var s = spreadsheet(String(v));
    return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }
  function sheet(id) {
    var data = JSON.parse(document.getElementById(id + '-data').textContent);
    var box = document.getElementById(id);
    var shown = { source: 'source', reference: 'reference', output: 'output' };
    data.rows.forEach(function (row, i) {
      var div = document.createElement('div');
      div.className = 'item';
      var html = '<div class="meta">' + esc(row.item) + (row.slot ? ' · output ' + esc(row.slot) : '') +
        ' · ' + esc(row.phenomenon) + ' · d = ' + esc(row.distance) + ' · line ' + esc(row.line) + '</div>';
      Object.keys(shown).forEach(function (k) {
        if (k in row) html += '<div class="text"><b>' + shown[k] + '</b> ' + marks(row[k]) + '</div>';
      });
      html += '<div class="text"><b>question</b> ' + marks(row.question) + '</div><div class="answers">';
      data.answers.forEach(function (a) {
        html += '<label><input type="radio" name="' + id + '-' + i + '" value="' + esc(a) + '"' +
          (row.answer === a ? ' checked' : '') + '> ' + esc(a) + '</label>';
      });
      html += '</div><input class="comment" placeholder="comment (optional)" value="' + esc(row.comment) + '">';
      div.innerHTML = html;
      if (row.answer) div.classList.add('done');
      div.querySelectorAll('input[type=radio]').forEach(function (r) {
        r.addEventListener('change', function () { row.answer = r.value; div.classList.add('done'); count(); });
      });
      div.querySelector('input.comment').addEventListener('input', function (e) { row.comment = e.target.value; });
      box.appendChild(div);
    });
    function count() {
      var n = data.rows.filter(function (r) { return r.answer; }).length;
      document.getElementById(id + '-count').textContent = n + ' of ' + data.rows.length + ' answered';
    }
    count();
    document.getElementById(id + '-save').addEventListener('click', function () {
      var lines = [data.columns.join(',')];
      data.rows.forEach(function (r) {
        lines.push(data.columns.map(function (c) { return csvField(r[c]); }).join(','));
      });
      var blob = new Blob([lines.join('\n') + '\n'], { type: 'text/csv' });
      var a = document.createElement('a');
      a.href = URL.createObjectURL(blob);
      a.download = data.file;
      document.body.appendChild(a);
      a.click();
      setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    });
  }
  ['detection', 'translation'].forEach(function (id) {
    if (document.getElementById(id + '-data')) sheet(id);
  });
})();
"#;

/// The page for the detection rows and, when there are systems, the translation rows.
pub fn page(detection: &[DetectionRow], translation: &[TranslationRow]) -> Result<String> {
    let mut body = String::new();
    let mut section = |id: &str, title: &str, about: &str, json: String| {
        body.push_str(&format!(
            "<h2>{title}</h2><p>{about}</p><div class=\"save\"><button id=\"{id}-save\" \
             type=\"button\">Save {id}.csv</button> <span id=\"{id}-count\"></span></div>\
             <div id=\"{id}\"></div><script type=\"application/json\" id=\"{id}-data\">{json}\
             </script>\n"
        ));
    };
    section(
        "detection",
        "Detection",
        "Each source sentence has a <mark class=\"d\">dependent</mark> and its \
         <mark class=\"h\">head</mark> marked. Do they really form the phenomenon named \
         above the sentence?",
        script_json(&SheetData {
            file: crate::layout::SHEET_DETECTION,
            columns: header(SheetKind::Detection),
            answers: &DETECTION_ANSWERS,
            rows: detection,
        })?,
    );
    if !translation.is_empty() {
        section(
            "translation",
            "Translation",
            "Each item shows the source with its <mark class=\"d\">dependent</mark> and \
             <mark class=\"h\">head</mark>, the reference with the words aligned to them, and \
             one system's output with the words aligned to them (the marks in the output are \
             a machine's guess: judge the whole output). Outputs are anonymous and in another \
             order for every item. Does the output convey the marked meaning as the reference \
             does?",
            script_json(&SheetData {
                file: crate::layout::SHEET_TRANSLATION,
                columns: header(SheetKind::Translation),
                answers: &TRANSLATION_ANSWERS,
                rows: translation,
            })?,
        );
    }
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\"><title>ldd-sets annotation</title>\
         <style>{STYLE}</style></head><body><h1>Annotation</h1><p>Answer every item, then save \
         each sheet with its button: your browser saves a CSV file; send it back as it is. \
         Nothing leaves this page otherwise, and nothing is kept when you close it before \
         saving.</p>{body}<script>{SCRIPT}</script></body></html>\n"
    ))
}
