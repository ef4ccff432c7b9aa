"use client";

import { CodeBlock } from "@/components/code-block";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field, inputStyles } from "@/components/ui/field";
import { SecretReveal } from "@/components/ui/secret-reveal";

/** Creates a key and shows it once, with a request to try it right away. */
export function CreateApiKeyForm({
  action,
  baseUrl,
}: {
  action: FormAction<{ id: string; name: string; secret: string }>;
  baseUrl: string;
}) {
  return (
    <ActionForm
      action={action}
      submitLabel="Create key"
      pendingLabel="Creating…"
      success={(key) => (
        <div className="flex flex-col gap-3">
          <SecretReveal label={`API key “${key.name}”`} value={key.secret} />
          <CodeBlock label="Try it">{`curl ${baseUrl}/api/private/organization/current \\\n  -H "Authorization: Bearer ${key.secret}"`}</CodeBlock>
        </div>
      )}
    >
      <div className="max-w-md">
        <Field label="Name" hint="Where the key will live, so you can tell keys apart later.">
          <input
            className={inputStyles}
            name="name"
            required
            maxLength={100}
            placeholder="Production server"
          />
        </Field>
      </div>
    </ActionForm>
  );
}
