import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { devnetNetwork } from "@/lib/chains/devnet";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { updateInvoiceFromPayments } from "@/lib/payments/update-invoice-from-payments";
import { insertBulkInvoices } from "@/scripts/test-support/bulk-invoices";
import { callRoute } from "@/scripts/test-support/call-route";
import {
  createTestAgentCredential,
  createTestInvoice,
  createTestOrganization,
} from "@/scripts/test-support/fixtures";
import { GET as paymentsReport } from "./payments/route";
import { GET as refundsReport } from "./refunds/route";

// The merchant's books over REST: three sessions (paid with a formula-like order id, unpaid, paid
// and partly refunded) give exactly the two paid rows, the CSV and the JSON agree, the refunds
// report lists the refund, and the range [from, to) filters on the confirmation time.
process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
process.env.SERVICE_NETWORKS = JSON.stringify([
  devnetNetwork({ rpcUrl: "http://127.0.0.1:8545", usdc: `0x${"5".repeat(40)}`, confirmations: 1 }),
]);

const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const txHash = () => `0x${randomBytes(32).toString("hex")}`;

/** A session paid by one transfer, confirmed at `at` by the watcher's step. */
async function paidInvoice(organizationId: string, input: { amount: string; order?: string; at: Date }) {
  const invoice = await createTestInvoice(organizationId, {
    amount: input.amount,
    status: "AWAITING_PAYMENT",
    merchantOrderId: input.order,
  });
  await db().invoice.update({
    where: { id: invoice.id },
    data: { deadline: new Date(input.at.getTime() + 3_600_000) },
  });
  const tx = txHash();
  await db().payment.create({
    data: {
      id: newId("payment"),
      organizationId,
      invoiceId: invoice.id,
      txHash: tx,
      logIndex: 0,
      amount: input.amount,
      blockNumber: 7n,
      blockHash: txHash(),
      confirmations: 1,
      status: "CONFIRMED",
      fromAddress: payer,
    },
  });
  await db().$transaction((transaction) => updateInvoiceFromPayments(transaction, invoice.id, input.at));
  return { ...invoice, tx };
}

/** A succeeded refund of 7.5 with formula-like free text, and a failed one of 1 an hour later. */
async function refundPartly(invoice: { id: string; organizationId: string; checkoutSessionId: string }) {
  const { id: invoiceId, organizationId, checkoutSessionId } = invoice;
  const common = { organizationId, invoiceId, checkoutSessionId, network: "devnet", token: "USDC" };
  const asked = {
    destination: "PAYER",
    toAddress: payer,
    requestedByKind: "api_key",
    requestedByName: "test",
  } as const;
  await db().refund.createMany({
    data: [
      {
        ...common,
        ...asked,
        id: newId("refund"),
        amount: "7.5",
        amountUsd: "7.5",
        status: "SUCCEEDED",
        txHash: refundTx,
        reason: '@SUM(1+1), damaged "box"',
        createdAt: march(4),
      },
      {
        ...common,
        ...asked,
        id: newId("refund"),
        amount: "1",
        amountUsd: "1",
        status: "FAILED",
        createdAt: march(4, 13),
      },
    ],
  });
}

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      index++;
    } else field += char;
  }
  expect(field).toBe("");
  return records;
}

const refundTx = txHash();
const march = (day: number, hour = 12) => new Date(Date.UTC(2026, 2, day, hour));

async function books() {
  const merchant = await createTestOrganization();
  const orgId = merchant.organization.id;
  const formula = await paidInvoice(orgId, {
    amount: "49",
    order: '=HYPERLINK("http://evil","x")',
    at: march(2),
  });
  await createTestInvoice(orgId, { amount: "5", status: "AWAITING_PAYMENT", merchantOrderId: "unpaid-1" });
  const refunded = await paidInvoice(orgId, {
    amount: "20",
    order: "order-3",
    at: march(3),
  });
  await refundPartly(refunded);
  // Another organization's paid invoice never shows.
  const other = await createTestOrganization();
  await paidInvoice(other.organization.id, { amount: "1", at: march(2) });
  return { ...merchant, formula, refunded };
}

const report = (kind: "payments" | "refunds", query: string, auth: Record<string, string>) =>
  callRoute(kind === "payments" ? paymentsReport : refundsReport, `/api/private/reports/${kind}?${query}`, {
    headers: auth,
  });

describe("GET /api/private/reports/payments", () => {
  it("lists exactly the paid invoices, CSV and JSON alike, with the formula neutralised", async () => {
    const { auth, formula, refunded } = await books();
    const csv = await report("payments", "from=2026-03-01&to=2026-04-01&format=csv", auth);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(
      'attachment; filename="payments_2026-03-01_2026-04-01.csv"',
    );
    const [header, ...records] = parseCsv(csv.text);
    expect(header).toEqual([
      "paid_at",
      "invoice_id",
      "checkout_session_id",
      "merchant_order_id",
      "network",
      "token",
      "token_amount",
      "tx_hash",
      "payer_address",
      "currency",
      "amount",
      "amount_usd",
      "rate",
      "quote_source",
      "refunded_amount",
    ]);
    expect(records).toEqual([
      [
        march(2).toISOString(),
        formula.id,
        formula.checkoutSessionId,
        '\'=HYPERLINK("http://evil","x")',
        "devnet",
        "USDC",
        "49.000000",
        formula.tx,
        payer,
        "USD",
        "49.00",
        "49.00",
        "1",
        "test fixture",
        "0.000000",
      ],
      [
        march(3).toISOString(),
        refunded.id,
        refunded.checkoutSessionId,
        "order-3",
        "devnet",
        "USDC",
        "20.000000",
        refunded.tx,
        payer,
        "USD",
        "20.00",
        "20.00",
        "1",
        "test fixture",
        "7.500000",
      ],
    ]);

    const json = await report("payments", "from=2026-03-01&to=2026-04-01&format=json", auth);
    expect(json.status).toBe(200);
    expect(json.json.data).toMatchObject({ object: "list", page: 1, rows: 1000, total: 2, hasMore: false });
    // Beside the rows, the merchant as its receipts name it (not set here); the CSV has no such column.
    expect(json.json.data.merchant).toEqual({
      name: expect.any(String),
      legalName: null,
      address: null,
      taxId: null,
      supportEmail: null,
    });
    // The same rows: the JSON keeps the order id as it is (no spreadsheet reads it).
    const asCsv = json.json.data.data.map((row: Record<string, string | null>) =>
      header.map((column) =>
        column === "merchant_order_id" && row[column]?.startsWith("=")
          ? `'${row[column]}`
          : (row[column] ?? ""),
      ),
    );
    expect(asCsv).toEqual(records);
  });

  it("filters on the confirmation time, [from, to), whatever offset the bounds are written in", async () => {
    const { auth, formula, refunded } = await books();
    const ids = async (query: string) => {
      const answer = await report("payments", `${query}&format=json`, auth);
      expect(answer.status).toBe(200);
      return answer.json.data.data.map((row: { invoice_id: string }) => row.invoice_id);
    };
    // 12:00Z on 2 March is 13:00 in Berlin: from 13:00+01:00 includes it, to 13:00+01:00 excludes it.
    expect(await ids(`from=${encodeURIComponent("2026-03-02T13:00:00+01:00")}&to=2026-03-05`)).toEqual([
      formula.id,
      refunded.id,
    ]);
    expect(await ids(`from=2026-03-01&to=${encodeURIComponent("2026-03-02T13:00:00+01:00")}`)).toEqual([]);
    expect(await ids(`from=2026-03-01&to=${encodeURIComponent("2026-03-02T12:00:00.001Z")}`)).toEqual([
      formula.id,
    ]);
    expect(await ids("from=2026-03-03&to=2026-03-04")).toEqual([refunded.id]);
    expect(await ids("from=2026-02-01&to=2026-03-01")).toEqual([]);
  });

  it("pages the JSON and streams a CSV of a few thousand rows in confirmation order", async () => {
    const { organization, auth } = await createTestOrganization();
    await insertBulkInvoices({
      organizationId: organization.id,
      prefix: "report",
      from: 1,
      to: 2500,
      amount: 1,
      status: "CONFIRMED",
      deadline: "1 hour",
      token: "USDC",
      confirmedFrom: march(10),
    });
    const csv = await report("payments", "from=2026-03-10&to=2026-03-11", auth);
    const [, ...records] = parseCsv(csv.text);
    expect(records).toHaveLength(2500);
    const times = records.map((record) => record[0]);
    expect(times).toEqual([...times].sort());
    const page = await report("payments", "from=2026-03-10&to=2026-03-11&format=json&page=3&rows=1000", auth);
    expect(page.json.data).toMatchObject({ page: 3, rows: 1000, total: 2500, hasMore: false });
    expect(page.json.data.data.map((row: { invoice_id: string }) => row.invoice_id)).toEqual(
      records.slice(2000).map((record) => record[1]),
    );
  });

  it.each([
    ["no range", "", "from"],
    ["a time without its offset", "from=2026-03-01T00:00:00&to=2026-04-01", "from"],
    ["not a time", "from=yesterday&to=2026-04-01", "from"],
    ["to before from", "from=2026-04-01&to=2026-03-01", "to"],
    ["an empty range", "from=2026-04-01&to=2026-04-01", "to"],
    ["an unknown format", "from=2026-03-01&to=2026-04-01&format=xlsx", "format"],
    ["too many rows a page", "from=2026-03-01&to=2026-04-01&format=json&rows=1001", "rows"],
    ["an unknown parameter", "from=2026-03-01&to=2026-04-01&status=paid", "status"],
  ])("%s is a 400 naming the parameter", async (_name, query, param) => {
    const { auth } = await createTestOrganization();
    const answer = await report("payments", query, auth);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, error: { type: "invalid_request_error", param } });
  });

  it("answers a read-only agent credential, and no one without a credential", async () => {
    const { organization } = await createTestOrganization();
    const agent = await createTestAgentCredential(organization.id, "read");
    expect((await report("payments", "from=2026-03-01&to=2026-04-01", agent.auth)).status).toBe(200);
    const anonymous = await report("payments", "from=2026-03-01&to=2026-04-01", {
      authorization: "Bearer sk_live_x",
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("GET /api/private/reports/refunds", () => {
  it("lists the refunds created in the range, with the free text neutralised and quoted", async () => {
    const { auth, refunded } = await books();
    const csv = await report("refunds", "from=2026-03-01&to=2026-04-01", auth);
    expect(csv.status).toBe(200);
    const [header, ...records] = parseCsv(csv.text);
    expect(header).toEqual([
      "created_at",
      "refund_id",
      "invoice_id",
      "network",
      "token",
      "amount",
      "status",
      "to_address",
      "tx_hash",
      "reason",
    ]);
    expect(csv.text).toContain(`"'@SUM(1+1), damaged ""box"""`);
    expect(records.map((record) => record.slice(2))).toEqual([
      [refunded.id, "devnet", "USDC", "7.500000", "succeeded", payer, refundTx, '\'@SUM(1+1), damaged "box"'],
      [refunded.id, "devnet", "USDC", "1.000000", "failed", payer, "", ""],
    ]);
    const json = await report("refunds", "from=2026-03-04T12:30:00Z&to=2026-04-01&format=json", auth);
    expect(json.json.data.data).toEqual([
      expect.objectContaining({
        invoice_id: refunded.id,
        amount: "1.000000",
        status: "failed",
        tx_hash: null,
        reason: null,
      }),
    ]);
  });
});
