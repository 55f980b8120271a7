/** A tab whose tools are not built yet says so plainly instead of showing an empty table. */
export function ComingPanel({ title, text }: { title: string; text: string }) {
  return (
    <div className="rounded-[var(--radius-card)] border border-dashed border-concrete-300 p-8 text-center" data-state="coming">
      <h2 className="text-xl">{title}</h2>
      <p className="mx-auto mt-2 max-w-md text-concrete-700">{text}</p>
    </div>
  );
}
