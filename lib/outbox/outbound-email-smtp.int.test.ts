// The outbox against a real SMTP server on loopback: one that stalls, then one that answers.
import { createServer, type Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { deliverOutboundEmails, sendOutboundEmailsNow } from "./deliver-outbound-emails";
import { recordOutboundEmails } from "./record-outbound-emails";

type Behaviour = "silent" | "trickling" | "answering";

// A loopback mail server whose behaviour the test sets: "silent" accepts the connection and never
// answers; "trickling" greets, then answers EHLO a byte every 200 ms without ever ending the line
// (nodemailer's idle timeout never fires); "answering" speaks enough SMTP to take a message.
const server = {
  behaviour: "silent" as Behaviour,
  connections: 0,
  messages: [] as string[],
  sockets: new Set<Socket>(),
};
const smtp = createServer((socket) => {
  server.connections++;
  server.sockets.add(socket);
  socket.on("close", () => server.sockets.delete(socket));
  socket.on("error", () => {});
  if (server.behaviour === "silent") return;
  socket.write("220 test ESMTP\r\n");
  let buffered = "";
  let message: string | undefined;
  socket.on("data", (chunk) => {
    buffered += chunk.toString("latin1");
    if (message !== undefined) {
      const end = buffered.indexOf("\r\n.\r\n");
      if (end === -1) return;
      server.messages.push(message + buffered.slice(0, end));
      message = undefined;
      buffered = buffered.slice(end + 5);
      socket.write("250 queued\r\n");
    }
    for (let end = buffered.indexOf("\r\n"); end !== -1; end = buffered.indexOf("\r\n")) {
      const command = buffered.slice(0, end).toUpperCase();
      buffered = buffered.slice(end + 2);
      if (server.behaviour === "trickling") {
        const timer = setInterval(() => socket.writable && socket.write("2"), 200);
        socket.on("close", () => clearInterval(timer));
        return;
      }
      if (command.startsWith("DATA")) {
        message = "";
        socket.write("354 go ahead\r\n");
        return;
      }
      socket.write(command.startsWith("QUIT") ? "221 bye\r\n" : "250 ok\r\n");
      if (command.startsWith("QUIT")) socket.end();
    }
  });
});
await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
const timeoutMs = 1500;
process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.address() as { port: number }).port}`;
process.env.SMTP_TIMEOUT_MS = String(timeoutMs);

afterAll(async () => {
  for (const socket of server.sockets) socket.destroy();
  await new Promise((resolve) => smtp.close(resolve));
});

describe("outbox emails over SMTP to a server that does not answer", () => {
  it.each<Behaviour>(["silent", "trickling"])(
    "a %s server: the send fails within SMTP_TIMEOUT_MS, and the email is retried later and sent once",
    async (behaviour) => {
      const { organization } = await createTestOrganization();
      const subject = `Your receipt ${newId("invoice")}`;
      const now = new Date();
      const ids = await db().$transaction((tx) =>
        recordOutboundEmails(
          tx,
          [
            {
              organizationId: organization.id,
              kind: "payment_receipt",
              aboutId: newId("invoice"),
              to: "buyer@example.com",
              subject,
              text: "Paid.",
            },
          ],
          now,
        ),
      );
      server.behaviour = behaviour;
      const connectionsBefore = server.connections;
      const started = performance.now();
      await sendOutboundEmailsNow(db(), ids, now);
      const tookMs = performance.now() - started;
      expect(server.connections - connectionsBefore).toBe(1);
      expect(tookMs).toBeGreaterThanOrEqual(timeoutMs - 100);
      expect(tookMs).toBeLessThan(timeoutMs + 3000);
      // The server hears nothing more from that send: its connection is closed.
      await expect.poll(() => server.sockets.size).toBe(0);
      const failed = await db().outboundEmail.findUniqueOrThrow({ where: { id: ids[0] } });
      expect(failed).toMatchObject({ sentAt: null, attempts: 1, claimToken: null, lockedUntil: null });
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(now.getTime());

      server.behaviour = "answering";
      // Not due yet: nothing is sent before its retry time.
      expect(await deliverOutboundEmails(db(), { ids, now })).toBe(0);
      const retryAt = new Date(failed.nextAttemptAt.getTime() + 1000);
      expect(await deliverOutboundEmails(db(), { ids, now: retryAt })).toBe(1);
      expect(await deliverOutboundEmails(db(), { ids, now: new Date(retryAt.getTime() + 3_600_000) })).toBe(
        0,
      );
      const delivered = server.messages.filter((message) => message.includes(subject));
      expect(delivered).toHaveLength(1);
      // The outbox row's own Message-ID, the same on any resend.
      const host = new URL(config().baseUrl).hostname;
      expect(delivered[0]?.split("\r\n")).toContain(`Message-ID: <${ids[0]}@${host}>`);
      expect(await db().outboundEmail.findUniqueOrThrow({ where: { id: ids[0] } })).toMatchObject({
        attempts: 2,
        claimToken: null,
      });
    },
  );
});
