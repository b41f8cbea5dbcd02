import type { Metadata } from 'next';
import Script from 'next/script';
import type { ReactNode } from 'react';
import { Header } from '@/components/layout/header';
import { Providers } from '@/components/providers';
import { brokerList } from '@/lib/brokers/service';
import './globals.css';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'potatoq console', template: '%s · potatoq console' },
  description: 'Queues, dead letters and workers of potatoq brokers',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  const brokers = brokerList();
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Runs before paint so a dark-mode page never flashes white. */}
        <Script src="/theme-init.js" strategy="beforeInteractive" />
      </head>
      <body className="min-h-screen font-sans">
        <Providers>
          <Header brokers={brokers} />
          <main className="mx-auto max-w-7xl px-4 py-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
