import Link from "next/link";
import { CodeBlock } from "@/components/code-block";
import { Card } from "@/components/ui/card";
import { config } from "@/lib/config";

/** The first visit's lesson: the one call that creates a checkout session, with this service's address. */
export function GetStarted() {
  const { baseUrl } = config();
  const curl = `curl ${baseUrl}/api/checkout-sessions \\
  -H "Authorization: Bearer $SERVICE_API_KEY" \\
  -H "Idempotency-Key: order-1001-attempt-1" \\
  -H "Content-Type: application/json" \\
  -d '{"amount": "49.00", "currency": "USD", "merchantOrderId": "1001"}'`;
  return (
    <Card
      title="Create your first checkout session"
      description="One API call; send the buyer to the url it returns."
    >
      <div className="flex flex-col gap-4 p-5">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600">
          <li>
            Create an API key on the{" "}
            <Link className="font-medium text-brand-600 hover:underline" href="/dashboard/api-keys">
              API keys
            </Link>{" "}
            page and export it as <code className="font-mono">SERVICE_API_KEY</code>.
          </li>
          <li>
            Run this, then open the <code className="font-mono">url</code> from the response.
          </li>
          <li>
            Fulfil the order when the signed <code className="font-mono">payment.confirmed</code> webhook
            arrives (
            <Link className="font-medium text-brand-600 hover:underline" href="/dashboard/webhooks">
              add an endpoint
            </Link>
            ).
          </li>
        </ol>
        <CodeBlock label="Terminal">{curl}</CodeBlock>
        <p className="text-sm text-slate-600">
          Every endpoint is in the{" "}
          <Link className="font-medium text-brand-600 hover:underline" href="/docs/api">
            API reference
          </Link>
          . Building with an AI coding agent? Give it the OpenAPI document at{" "}
          <code className="break-all font-mono">{baseUrl}/api/openapi.json</code>.
        </p>
      </div>
    </Card>
  );
}
