import type { Metadata } from 'next';
import Script from 'next/script';
import type { ReactNode } from 'react';
import { AccountBadge } from '@/components/auth/account-badge';
import { InsecureBanner } from '@/components/auth/insecure-banner';
import { Header } from '@/components/layout/header';
import { Providers } from '@/components/providers';
import { insecureBanner } from '@/lib/auth/boot';
import { currentNonce, currentPrincipal } from '@/lib/auth/current';
import { brokerList, brokerModel, consoleEnvironment } from '@/lib/brokers/service';
import { schedulesDecl } from '@/lib/brokers/schedule-model';
import './globals.css';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'potatoq console', template: '%s · potatoq console' },
  description: 'Queues, dead letters and workers of potatoq brokers',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Signed-out visitors (the login page) see no header: broker names are not public.
  const [principal, nonce] = await Promise.all([currentPrincipal(), currentNonce()]);
  // The Schedules tab only where the broker's system declares schedules (its model, no I/O).
  const brokers = principal ? brokerList().map((b) => ({ ...b, schedules: !!schedulesDecl(brokerModel(b.id)) })) : [];
  const banner = insecureBanner();
  // Broker names and environments are for signed-in readers only, like the header.
  const environments = principal
    ? { console: consoleEnvironment(), brokers: Object.fromEntries(brokers.flatMap((b) => (b.environment ? [[b.id, b.environment]] : []))) }
    : undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Runs before paint so a dark-mode page never flashes white. */}
        <Script src="/theme-init.js" strategy="beforeInteractive" nonce={nonce} />
      </head>
      <body className="min-h-screen font-sans">
        <Providers environments={environments}>
          {banner ? <InsecureBanner message={banner} /> : null}
          {principal ? (
            <Header brokers={brokers} account={principal.via === 'none' ? undefined : <AccountBadge principal={principal} />} />
          ) : null}
          <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
