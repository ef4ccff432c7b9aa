import { connect, type Socket } from "node:net";
import nodemailer from "nodemailer";
import SMTPTransport from "nodemailer/lib/smtp-transport";
import { config } from "../config";
import type { Db } from "../db/client";
import { newId } from "../ids";
import { log } from "../log";

/** A file an email carries (nodemailer's own shape), its content as text. */
export type EmailAttachment = { filename: string; contentType: string; content: string };

type Email = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: EmailAttachment[];
  /** The Message-ID header, `<…@host>`, when a resend must name the same message (else a new one). */
  messageId?: string;
};

/**
 * An email, plain text with an optional HTML alternative and attachments: by SMTP when configured,
 * else into the development mailbox (attachments kept, for whoever reads it there). An SMTP send
 * takes at most SMTP_TIMEOUT_MS, or `withinMs` if less (the outbox's hold on the email ends then:
 * lib/outbox/deliver-outbound-emails.ts), and fails rather than run longer.
 */
export async function sendEmail(database: Db, input: Email, options: { withinMs?: number } = {}) {
  const { email } = config();
  if (email.smtpUrl) {
    const limitMs = Math.min(email.smtpTimeoutMs, options.withinMs ?? Infinity);
    await sendBySmtp(email.smtpUrl, { ...input, from: email.from }, limitMs);
    return;
  }
  if (!email.devMailbox) {
    log.error(
      { subject: input.subject },
      "an email could not be sent: set SMTP_URL (or SERVICE_DEV_MAILBOX=true for development)",
    );
    throw new Error("email is not configured");
  }
  const { messageId: _, ...shown } = input;
  await database.devEmail.create({ data: { id: newId("devEmail"), ...shown } });
}

/**
 * One SMTP send, over within `limitMs` whatever the server does: nodemailer's own waits (to
 * connect, for the greeting, for each reply; by default 2, 0.5 and 10 minutes) are bounded by it,
 * and the socket, opened here so that it can be, is destroyed at the limit, so a server that
 * stalls or trickles its replies cannot keep a send going after its sender gave up on it.
 */
async function sendBySmtp(url: string, message: Email & { from: string }, limitMs: number) {
  if (limitMs <= 0) throw new Error("no time is left to send this email");
  let socket: Socket | undefined;
  // The transport built here: nodemailer.createTransport({ url, … }) would keep only the URL.
  const transport = nodemailer.createTransport(
    new SMTPTransport({
      url,
      connectionTimeout: limitMs,
      greetingTimeout: limitMs,
      socketTimeout: limitMs,
      dnsTimeout: limitMs,
      // nodemailer's defaults for a URL without a port: 465 for smtps://, else 587.
      getSocket: (options, callback) => {
        socket = connect({
          host: options.host ?? "localhost",
          port: Number(options.port) || (options.secure ? 465 : 587),
        });
        callback(null, { connection: socket });
      },
    }),
  );
  const deadline = setTimeout(
    () => socket?.destroy(new Error(`the SMTP send took longer than ${limitMs} ms`)),
    limitMs,
  );
  try {
    await transport.sendMail(message);
  } finally {
    clearTimeout(deadline);
  }
}
