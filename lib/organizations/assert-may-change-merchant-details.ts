import { actorOf, authorize } from "../authority/authorize";

/**
 * What buyers' receipts say of the merchant, and whether they are emailed, change only by an owner
 * or an API key: an agent credential or OAuth token asking is refused (receipts.configure is
 * decidersOnly), as is a member. Does nothing when the request leaves them alone.
 */
export function assertMayChangeMerchantDetails(
  caller: Parameters<typeof actorOf>[0],
  input: {
    legalName?: string | null;
    legalAddress?: string | null;
    taxId?: string | null;
    supportEmail?: string | null;
    receiptEmails?: boolean;
  },
) {
  const { legalName, legalAddress, taxId, supportEmail, receiptEmails } = input;
  if ([legalName, legalAddress, taxId, supportEmail, receiptEmails].every((field) => field === undefined))
    return;
  authorize(actorOf(caller), "receipts.configure");
}
