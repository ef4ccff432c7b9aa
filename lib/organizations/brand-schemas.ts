import { z } from "zod";
import { text } from "../validation/fields";

/** Largest logo we store and serve: a checkout logo is a small image, and it rides in a JSON body. */
export const maxLogoBytes = 32 * 1024;

/** Image formats browsers render without running anything (no SVG: it can carry script). */
const logoFormats = [
  { contentType: "image/png", magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { contentType: "image/jpeg", magic: [0xff, 0xd8, 0xff] },
  { contentType: "image/gif", magic: [0x47, 0x49, 0x46, 0x38] },
] as const;

/** The logo's content type from its first bytes (never from a name or a declared type). */
export function sniffLogoType(bytes: Uint8Array): string | null {
  const riff = [0x52, 0x49, 0x46, 0x46];
  const webp = [0x57, 0x45, 0x42, 0x50];
  if (riff.every((byte, i) => bytes[i] === byte) && webp.every((byte, i) => bytes[i + 8] === byte))
    return "image/webp";
  return (
    logoFormats.find((format) => format.magic.every((byte, i) => bytes[i] === byte))?.contentType ?? null
  );
}

function channel(hex: string): number {
  const value = Number.parseInt(hex, 16) / 255;
  return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 contrast ratio of a #rrggbb color against white. */
export function contrastWithWhite(color: string): number {
  const luminance =
    0.2126 * channel(color.slice(1, 3)) +
    0.7152 * channel(color.slice(3, 5)) +
    0.0722 * channel(color.slice(5, 7));
  return 1.05 / (luminance + 0.05);
}

/** The brand color is the background of white button text, so it needs WCAG AA contrast (4.5:1). */
export const brandColorField = z
  .string({ error: "must be a color such as #1d4ed8" })
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: "must be a color such as #1d4ed8 (# and six hex digits)" })
  .transform((color) => color.toLowerCase())
  .refine((color) => contrastWithWhite(color) >= 4.5, {
    error: "is too light: white text on it needs a contrast of at least 4.5:1 (choose a darker color)",
  });

/** An uploaded logo: base64 of a PNG, JPEG, GIF or WebP image up to 32 KiB. */
export const logoUploadField = z
  .strictObject({
    dataBase64: z.base64({ error: "must be base64" }).max(Math.ceil(maxLogoBytes / 3) * 4 + 4, {
      error: `must be an image of at most ${maxLogoBytes / 1024} KiB`,
    }),
  })
  .transform((value, context) => {
    const bytes = Buffer.from(value.dataBase64, "base64");
    const contentType = sniffLogoType(bytes);
    if (bytes.length > maxLogoBytes)
      context.addIssue({ code: "custom", message: `must be an image of at most ${maxLogoBytes / 1024} KiB` });
    else if (!contentType)
      context.addIssue({
        code: "custom",
        message: "must be a PNG, JPEG, GIF or WebP image (SVG is not accepted)",
      });
    return { bytes, contentType: contentType ?? "" };
  });

/** Branding settings; null clears one. */
export const brandingFields = {
  brandDisplayName: text(80).nullable().optional(),
  brandColor: brandColorField.nullable().optional(),
  logo: logoUploadField.nullable().optional(),
};

/**
 * The dashboard's branding form: it always shows every field, so an emptied one clears its
 * setting; the logo arrives as base64 (read in the browser), and `removeLogo` deletes it.
 */
const brandingObject = z.strictObject(brandingFields);

export const brandingFormSchema = z
  .strictObject({
    brandDisplayName: z.string().optional(),
    brandColor: z.string().optional(),
    logoBase64: z.string().optional(),
    removeLogo: z.literal("on").optional(),
  })
  .transform(
    (form): z.input<typeof brandingObject> => ({
      brandDisplayName: form.brandDisplayName ?? null,
      brandColor: form.brandColor ?? null,
      logo: form.removeLogo ? null : form.logoBase64 ? { dataBase64: form.logoBase64 } : undefined,
    }),
  )
  .pipe(brandingObject);
