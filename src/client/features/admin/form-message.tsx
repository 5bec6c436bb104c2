/** A console form's message that belongs to no single field (wrong password, expired link). */
export function FormMessage({ message, className }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className={`rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 ${className ?? ''}`}>
      {message}
    </p>
  );
}
