"use client";

import { useState } from "react";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field, inputStyles } from "@/components/ui/field";

/**
 * The hosted checkout's branding. The logo file is read here into a hidden base64 field, the
 * shape the API takes, so the server validates one format whichever way a logo arrives.
 */
export function BrandingForm<T>(props: {
  action: FormAction<T>;
  displayName: string | null;
  color: string | null;
  logoUrl: string | null;
}) {
  const [logoBase64, setLogoBase64] = useState("");
  return (
    <ActionForm action={props.action} submitLabel="Save branding" success="Saved.">
      <Field
        label="Display name"
        hint="Shown to buyers instead of the organization's name. Leave empty to use it."
      >
        <input
          className={inputStyles}
          name="brandDisplayName"
          maxLength={80}
          defaultValue={props.displayName ?? ""}
        />
      </Field>
      <Field label="Brand color" hint="#rrggbb; dark enough for white text on it (contrast 4.5:1).">
        <input
          className={inputStyles}
          name="brandColor"
          placeholder="#4338ca"
          pattern="#[0-9a-fA-F]{6}"
          defaultValue={props.color ?? ""}
        />
      </Field>
      <Field label="Logo" hint="PNG, JPEG, GIF or WebP, at most 32 KiB.">
        <input
          className={inputStyles}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (!file) return setLogoBase64("");
            const reader = new FileReader();
            // A data: URL is "data:<type>;base64,<data>"; the server sniffs the type itself.
            reader.onload = () => setLogoBase64(String(reader.result).split(",")[1] ?? "");
            reader.readAsDataURL(file);
          }}
        />
      </Field>
      <input type="hidden" name="logoBase64" value={logoBase64} />
      {props.logoUrl ? (
        <div className="flex items-center gap-3 text-sm">
          {/* biome-ignore lint/performance/noImgElement: the stored logo, served from our origin. */}
          <img
            src={props.logoUrl}
            alt="Current logo"
            className="size-10 rounded-md border border-slate-200 object-contain"
          />
          <label className="flex items-center gap-2">
            <input type="checkbox" name="removeLogo" /> Remove the logo
          </label>
        </div>
      ) : null}
    </ActionForm>
  );
}
