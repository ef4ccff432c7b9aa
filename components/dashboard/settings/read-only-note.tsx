export function ReadOnlyNote({ organization }: { organization: string }) {
  return <p className="text-sm text-slate-500">Only owners of {organization} can change this.</p>;
}
