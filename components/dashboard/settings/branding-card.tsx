import type { FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { BrandingForm } from "../branding-form";
import { ReadOnlyNote } from "./read-only-note";

/** How the hosted payment page looks to buyers (owners change it). */
export function BrandingCard<T>({
  organizationName,
  branding,
  update,
}: {
  organizationName: string;
  branding: { displayName: string | null; color: string | null; logoUrl: string | null };
  /** The update action, for owners; absent, a read-only note is shown. */
  update?: FormAction<T>;
}) {
  return (
    <Card title="Checkout branding" description="How the hosted payment page looks to buyers.">
      <div className="flex flex-col gap-3 p-5">
        {update ? (
          <BrandingForm action={update} {...branding} />
        ) : (
          <ReadOnlyNote organization={organizationName} />
        )}
      </div>
    </Card>
  );
}
