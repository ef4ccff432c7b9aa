// The HTTP server of `npm start` (and `npm run dev`): Next.js behind a plain Node server, so each
// request carries the client address resolved from the socket (lib/net/client-address.ts), which
// App Router handlers cannot see. Listens on HOST:PORT.
import { createServer } from "node:http";
import path from "node:path";
import next from "next";
import { config } from "../lib/config";
import { stampClientAddress } from "../lib/net/client-address";

const dev = process.argv.includes("--dev");
const { host, port, trustedProxies } = config();
// Turbopack in development, as `next dev` uses; production serves the existing build.
const app = next({ dev, turbopack: dev, dir: path.resolve(import.meta.dirname, ".."), hostname: host, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((request, response) => {
  stampClientAddress(request, trustedProxies);
  void handle(request, response);
});
server.listen(port, host, () => console.log(`Listening on http://${host}:${port}`));

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    server.close();
    void app.close().finally(() => process.exit(0));
  });
}
