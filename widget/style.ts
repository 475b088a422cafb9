/** The widget's own styles, inside its shadow root: the host page's CSS cannot reach them, nor they the page. */
export const STYLE = `
:host{all:initial;display:block;font:16px/1.5 system-ui,-apple-system,sans-serif;color:#1a1a1a;max-width:40rem}
*{box-sizing:border-box}
.card{border:1px solid #d0d0d0;border-radius:8px;padding:1rem;background:#fff}
h2{font-size:1.25rem;margin:0 0 .75rem}h3{font-size:1rem;margin:1rem 0 .5rem}
p{margin:.5rem 0}.note{color:#4a4a4a;font-size:.9rem}button .note{color:inherit}
button{font:inherit;cursor:pointer;border-radius:6px;border:1px solid #0b57d0;background:#fff;color:#0b57d0;padding:.5rem .9rem;margin:.2rem}
button.primary{background:#0b57d0;color:#fff;width:100%;margin:1rem 0 0;padding:.7rem}
button[aria-pressed=true],button[aria-checked=true]{background:#0b57d0;color:#fff}
button:disabled{opacity:.5;cursor:not-allowed}
button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,a:focus-visible{outline:3px solid #f9ab00;outline-offset:2px}
.list{display:grid;gap:.5rem;padding:0;margin:0;list-style:none}
.offering{display:block;width:100%;text-align:left;margin:0;padding:.75rem}
.days{display:grid;grid-template-columns:repeat(auto-fill,minmax(5.5rem,1fr));gap:.25rem}
.days button{margin:0;padding:.4rem .2rem;font-size:.9rem}
.times{display:flex;flex-wrap:wrap;gap:.25rem}
.nav{display:flex;justify-content:space-between;align-items:center}
label{display:block;font-weight:600;margin-top:.75rem}
input,select,textarea{font:inherit;width:100%;padding:.5rem;border:1px solid #767676;border-radius:6px;margin-top:.25rem}
input[type=checkbox]{width:auto;margin-right:.5rem}
.check{display:flex;align-items:flex-start;font-weight:400}
.row{display:flex;gap:.5rem}.row>*{flex:1}
.price{display:grid;grid-template-columns:1fr auto;gap:.1rem 1rem;margin:1rem 0}.price .total{font-weight:700}
[role=alert]{border:2px solid #b3261e;color:#b3261e;padding:.5rem;border-radius:6px}
.ok{border:2px solid #146c2e;padding:.75rem;border-radius:6px}
a{color:#0b57d0}
.waiver{max-height:8rem;overflow:auto;border:1px solid #d0d0d0;padding:.5rem;font-size:.9rem;white-space:pre-wrap}
`
