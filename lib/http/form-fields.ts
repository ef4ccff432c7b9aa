/** A form's fields: Next.js's own `$ACTION…` fields and empty inputs left out, as if not sent. */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && value !== "" && !name.startsWith("$ACTION")) fields[name] = value;
  }
  return fields;
}
