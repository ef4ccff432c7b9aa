import type { PublicPayment } from "@/lib/payments/serialize-public-payment";

/** A public payment API answer: the payment request, or its error message (else `fallback`) thrown. */
export async function readPayment(response: Response, fallback: string): Promise<PublicPayment> {
  const body = await response.json();
  if (!response.ok) throw new Error(body.error?.message ?? fallback);
  return body as PublicPayment;
}
