/** Mode none on a non-loopback address, allowed by POTATOQ_CONSOLE_INSECURE_NO_AUTH. */
export function InsecureBanner({ message }: { message: string }) {
  return (
    <div role="alert" data-testid="insecure-banner" className="bg-red-700 px-4 py-2 text-center text-sm font-semibold text-white">
      {message}
    </div>
  );
}
