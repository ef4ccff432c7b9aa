import type { Db } from "../db/client";
import { merchantDetailsOf } from "./serialize-organization";

/** The merchant the books are of, as its receipts name it: the payments report's JSON carries it. */
export async function readReportMerchant(database: Db, organizationId: string) {
  const organization = await database.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { name: true, legalName: true, legalAddress: true, taxId: true, supportEmail: true },
  });
  return { name: organization.name, ...merchantDetailsOf(organization) };
}
