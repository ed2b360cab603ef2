/** The dashboard's stylesheet: readable at phone width, visible focus, no framework. */
export const DASHBOARD_STYLES = `
:root { color-scheme: light dark; --accent: #2563eb; --muted: #6b7280; --bg: Canvas; --card: color-mix(in srgb, CanvasText 4%, Canvas); font-family: system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.45; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: Canvas; padding: 4px 8px; }
.top { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; padding: 10px 16px; border-bottom: 1px solid color-mix(in srgb, CanvasText 15%, Canvas); }
.brand { font-weight: 700; font-size: 1.2rem; text-decoration: none; color: inherit; }
nav { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; }
main { max-width: 960px; margin: 0 auto; padding: 16px; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
form.card, section.card, li.card { background: var(--card); border-radius: 10px; padding: 14px; margin: 0 0 14px; }
fieldset { border: 1px solid color-mix(in srgb, CanvasText 15%, Canvas); border-radius: 8px; margin: 10px 0; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 10px 16px; }
label { display: block; font-weight: 600; font-size: .92rem; }
label.check { font-weight: 500; display: flex; gap: 6px; align-items: center; }
input[type=text], input[type=url], input[type=email], input[type=password], input[type=number], select, textarea { width: 100%; padding: 8px; font: inherit; border-radius: 6px; border: 1px solid color-mix(in srgb, CanvasText 30%, Canvas); margin-top: 4px; }
button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 0; background: var(--accent); color: white; cursor: pointer; }
button.secondary { background: color-mix(in srgb, CanvasText 12%, Canvas); color: CanvasText; }
button.link { background: none; color: var(--accent); padding: 0; text-decoration: underline; }
button:disabled { opacity: .6; cursor: default; }
.muted { color: var(--muted); font-size: .9rem; }
.error { color: #b91c1c; }
ul.plain { list-style: none; padding: 0; margin: 0; }
.stage { font-weight: 600; text-transform: capitalize; }
progress { width: 100%; height: 18px; }
.clips { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 14px; }
.clip video { width: 100%; max-height: 460px; background: #000; border-radius: 8px; }
.score { font-size: 1.4rem; font-weight: 700; }
.key { font-family: ui-monospace, monospace; word-break: break-all; background: var(--card); padding: 8px; border-radius: 6px; }
#toast { position: fixed; bottom: 12px; left: 50%; transform: translateX(-50%); background: CanvasText; color: Canvas; padding: 8px 14px; border-radius: 6px; display: none; }
#toast.show { display: block; }
table { width: 100%; border-collapse: collapse; } td, th { text-align: left; padding: 6px 4px; border-bottom: 1px solid color-mix(in srgb, CanvasText 12%, Canvas); }
@media (max-width: 520px) { main { padding: 10px; } .top { padding: 8px 10px; } td.opt, th.opt { display: none; } }
`;
