"""The HTML report's inline style sheet and its one optional script.

Both are inlined by :func:`remit.reports.render_html`; the page loads nothing else. The
script only opens the ``<details>`` a link points at (and its ancestors) so a reader
following ``#trial-...`` lands on an open section; without it the page still works, as
the target's summary is shown and a click opens it.
"""

from __future__ import annotations

__all__ = ["OPEN_TARGET_SCRIPT", "STYLE"]

STYLE = """
:root{--fg:#1b1f23;--muted:#5a6470;--line:#d8dde3;--bg2:#f6f8fa;--ok:#1a7f37;--no:#c62828;
--warn:#9a6700;--div:#d62728;--auth:#7b3fb0}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
color:var(--fg);margin:0 auto;max-width:1500px;padding:0 1.2rem 3rem}
h1{font-size:1.5rem;margin:1.2rem 0 .3rem}h2{font-size:1.2rem;margin:2rem 0 .6rem;
border-bottom:2px solid var(--line);padding-bottom:.2rem}h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
a{color:#0b5cad}code,pre{font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace}
pre{background:var(--bg2);padding:.6rem;overflow-x:auto;white-space:pre}
nav.toc{background:var(--bg2);padding:.4rem .8rem;border-radius:6px}
nav.toc a{margin-right:1rem}
table{border-collapse:collapse;margin:.4rem 0 1rem}
th,td{border:1px solid var(--line);padding:.25rem .5rem;vertical-align:top;text-align:left}
th{background:var(--bg2);font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
table.manifest th{width:13rem}
.muted{color:var(--muted)}.ok{color:var(--ok);font-weight:600}.no{color:var(--no);font-weight:600}
.better{color:var(--ok);font-weight:600}.notes li{color:var(--warn)}
.verdict{font-size:1.05rem;background:var(--bg2);border-left:4px solid #0b5cad;padding:.5rem .8rem}
.charts{display:grid;align-items:start;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:1rem}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:.5rem;background:#fff}
figcaption{font-size:.9rem;color:var(--muted);margin-bottom:.3rem}
svg.chart{width:100%;height:auto;display:block}
details{margin:.3rem 0}details>summary{cursor:pointer}
details.scenario,details.trial{border:1px solid var(--line);border-radius:6px;padding:.3rem .6rem}
details.trial.fail{border-left:4px solid var(--no)}
details.trial.pass{border-left:4px solid var(--ok)}
details.trial .sign{font-weight:700}details.trial.fail .sign{color:var(--no)}
details.trial.pass .sign{color:var(--ok)}
details:target,details.scenario:target{outline:3px solid #0b5cad}
.body{padding:.4rem 0}.sub{font-weight:600;margin:.8rem 0 .3rem}
dl.facts{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;margin:.3rem 0}
dl.facts div{display:flex;gap:.3rem}dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;font-weight:600}
ul.broke li{color:var(--no)}
.divergence{color:var(--div);font-weight:600;border-left:4px solid var(--div);padding:.2rem .6rem;
background:#fdecea}
.cols{display:grid;grid-template-columns:minmax(0,1.8fr) minmax(0,1fr);gap:1rem}
@media (max-width:900px){.cols{grid-template-columns:minmax(0,1fr)}}
.scroll{overflow-x:auto}
table.trail{font-size:12px;width:100%;table-layout:fixed}
table.trail th,table.trail td{padding:.2rem .3rem;overflow-wrap:anywhere}
table.trail col.c-mk{width:2.1em}table.trail col.c-step{width:3.6em}
table.trail col.c-role{width:15%}table.trail col.c-action{width:16%}
table.trail col.c-quote{width:11%}table.trail col.c-decision{width:5.8em}
table.trail col.c-grants{width:22%}
table.trail td.grants{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
table.trail tr.diverges td{background:#fdecea}
table.trail td.mk{color:var(--div);font-weight:700;white-space:nowrap;overflow-wrap:normal}
table.trail tr.reasons td{border-top-style:hidden;padding-top:0}
table.trail td.reason{white-space:pre-wrap;padding-left:1.2rem}
table.trail td.reason .unmet,table.trail td.reason .stopped{color:var(--no)}
.fx{white-space:nowrap}table.trail .fx{white-space:normal}
.id{color:var(--muted);font-size:11px;white-space:nowrap}.ev{color:var(--muted)}
table.trail .id{white-space:normal}
pre.explain{white-space:pre-wrap;overflow-wrap:anywhere;overflow-x:visible}
pre.explain .ln{display:block;padding-left:6ch;text-indent:-6ch}
p.divergence code{overflow-wrap:anywhere}
.borrowed{color:var(--auth);font-weight:600}.under{font-size:11px}
ol.transcript{list-style:none;padding:0;margin:0;font-size:12.5px;max-height:42rem;overflow-y:auto}
ol.transcript li{border-bottom:1px solid var(--line);padding:.25rem 0}
ol.transcript li.diverges{background:#fdecea}
.who{color:var(--muted)}.said{white-space:pre-wrap;overflow-wrap:anywhere}
.tool{background:var(--bg2);border:1px solid var(--line);border-radius:3px;padding:0 .25rem;
font-size:11px}
.legend{font-size:12px;color:var(--muted)}.k{font-weight:700}.k-msg{color:#8a8a8a}
.k-ask{color:#1f77b4}.k-ho{color:#e07b00}.k-ok{color:#2ca02c}.k-no{color:#d62728}
.k-auth{color:#9467bd}.k-div{color:#d62728;opacity:.5}
ul.links{columns:4 14rem;padding-left:1.2rem}
.closing{margin-top:2.5rem;border-top:2px solid var(--line);padding-top:.6rem;color:var(--muted)}
"""
"""The page's style sheet (system fonts, no web font)."""

OPEN_TARGET_SCRIPT = (
    "(function(){function o(){var h=location.hash.slice(1);"
    "var e=h?document.getElementById(h):null;"
    "for(;e;e=e.parentElement){if(e.tagName==='DETAILS'){e.open=true;}}}"
    "window.addEventListener('hashchange',o);o();})();"
)
"""Optional enhancement: open the targeted ``<details>`` (fragments are ``~``-escaped
ASCII, so no decoding is needed)."""
