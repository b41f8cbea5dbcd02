import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="py-16 text-center" data-testid="not-found">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-zinc-500 dark:text-zinc-400">There is no such broker, queue or page in this console.</p>
      <Link href="/" className="link mt-4 inline-block">
        Back to the overview
      </Link>
    </div>
  );
}
