import { readFileSync } from "node:fs";
import path from "node:path";
import { renderSVG } from "uqr";

// An MCP App (the ext-apps extension): clients that render apps show paylink and checkout-session
// results inline as a card with the price, a QR code of the payment link and, for a session, a
// status that refreshes itself. Other clients read the same result's JSON text.

export const paymentAppUri = "ui://crypto-checkout/payment.html";
export const paymentAppMimeType = "text/html;profile=mcp-app";
/** Where a result carries its QR code for the app: SVG markup rendered here, not in the iframe. */
export const qrMetaKey = "crypto-checkout/qrSvg";

// A QR code takes ~1.5 ms of CPU to draw, and a paylink's or session's URL never changes: the
// last few hundred are kept (oldest dropped first), so repeated reads do not redraw them.
const qrCache = new Map<string, string>();
const qrCacheEntries = 500;

export function qrSvg(url: string): string {
  const cached = qrCache.get(url);
  if (cached) return cached;
  const svg = renderSVG(url, { border: 2 });
  if (qrCache.size >= qrCacheEntries) qrCache.delete(qrCache.keys().next().value as string);
  qrCache.set(url, svg);
  return svg;
}

/**
 * The ext-apps browser bundle, inlined: an app is one self-contained HTML document. The bundle
 * ends in `export{local as Name,…}`; its names become one object the page script reads.
 */
function extAppsBundle(): string {
  const file = path.join(
    process.cwd(),
    "node_modules/@modelcontextprotocol/ext-apps/dist/src/app-with-deps.js",
  );
  const source = readFileSync(file, "utf8");
  const at = source.lastIndexOf("export{");
  const names = source
    .slice(at + "export{".length, source.lastIndexOf("}"))
    .split(",")
    .map((entry) => entry.trim().split(" as "))
    .map(([local, exported]) => `${exported ?? local}:${local}`);
  return `${source.slice(0, at)}const extApps={${names.join(",")}};`;
}

const page = `
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; padding: 16px; color: #111; }
  .card { display: flex; gap: 16px; align-items: center; }
  #qr svg { width: 176px; height: 176px; display: block; }
  .price { font-size: 24px; font-weight: 600; }
  .status { display: inline-block; padding: 2px 8px; border-radius: 999px; background: #eef; }
  .status.paid { background: #dfd; }
  a { color: inherit; word-break: break-all; }
</style>
<div class="card">
  <div id="qr"></div>
  <div>
    <div id="name"></div>
    <div class="price" id="price"></div>
    <div><span class="status" id="status">Waiting for the result…</span></div>
    <div><a id="link" target="_blank" rel="noopener"></a></div>
  </div>
</div>
<script type="module">
__BUNDLE__
const app = new extApps.App({ name: "Crypto Checkout payment", version: "1.0.0" });
const $ = (id) => document.getElementById(id);
let poll;
function show(result) {
  const data = result.structuredContent;
  if (!data || result.isError) return;
  if (result._meta?.["${qrMetaKey}"]) $("qr").innerHTML = result._meta["${qrMetaKey}"];
  if (data.object === "payment_status") {
    $("status").textContent = data.paid ? "Paid" : (data.payment?.status ?? data.sessionStatus).replaceAll("_", " ").toLowerCase();
    $("status").classList.toggle("paid", data.paid);
    if (data.paid || data.sessionStatus === "EXPIRED") clearInterval(poll);
    return;
  }
  $("name").textContent = data.name ?? data.description ?? "Checkout";
  $("price").textContent = data.amount + " " + data.currency;
  $("link").textContent = data.url;
  $("link").href = data.url;
  if (data.object === "paylink") {
    $("status").textContent = data.enabled ? "Enabled: anyone with the link can pay" : "Disabled";
  } else if (data.object === "checkout_session") {
    const refresh = async () => show(await app.callServerTool({ name: "service_payments_status", arguments: { checkoutSessionId: data.id } }));
    clearInterval(poll);
    poll = setInterval(refresh, 3000);
    refresh();
  }
}
app.ontoolresult = show;
await app.connect();
</script>`;

let cached: string | undefined;

export function paymentAppHtml(): string {
  cached ??= `<!doctype html><html><head><meta charset="utf-8"><title>Payment</title></head><body>${page.replace(
    "__BUNDLE__",
    () => extAppsBundle(),
  )}</body></html>`;
  return cached;
}
