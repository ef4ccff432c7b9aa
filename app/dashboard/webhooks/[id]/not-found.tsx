import Link from "next/link";
import { buttonStyles } from "@/components/ui/button-styles";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

export default function WebhookEndpointNotFound() {
  return (
    <Card>
      <EmptyState title="Webhook endpoint not found">
        <p>It may have been deleted, or it belongs to another organization.</p>
        <Link className={`${buttonStyles.secondary} mt-4`} href="/dashboard/webhooks">
          Back to webhooks
        </Link>
      </EmptyState>
    </Card>
  );
}
