import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { listTransactions } from "@/lib/payments/list-transactions";
import { listTransactionsQuery } from "@/lib/payments/payment-schemas";
import { serializeInvoice } from "@/lib/payments/serialize-invoice";
import { listPage } from "@/lib/validation/list-page";

export const GET = apiKeyRoute("transactions.read", async ({ request, organizationId }) => {
  const paging = readQuery(request, listTransactionsQuery);
  const { invoices, total } = await listTransactions(db(), organizationId, paging);
  return { body: listPage(invoices.map(serializeInvoice), paging, total) };
});
