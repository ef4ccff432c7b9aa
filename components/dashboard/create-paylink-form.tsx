"use client";

import Link from "next/link";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { PaylinkFields } from "./paylink-fields";

/** Creates a paylink and points to it; the list beside it refreshes on its own. */
export function CreatePaylinkForm({ action }: { action: FormAction<{ id: string; name: string }> }) {
  return (
    <ActionForm
      action={action}
      submitLabel="Create paylink"
      pendingLabel="Creating…"
      success={(paylink) => (
        <p role="status" className="text-sm text-emerald-700">
          Created “{paylink.name}”.{" "}
          <Link href={`/dashboard/paylinks/${paylink.id}`} className="font-medium underline">
            Share it
          </Link>
        </p>
      )}
    >
      <PaylinkFields />
    </ActionForm>
  );
}
