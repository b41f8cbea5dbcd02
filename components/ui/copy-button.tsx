'use client';
import { useState } from 'react';
import { Button } from './button';

export function CopyButton({
  text,
  label = 'Copy',
  ariaLabel,
  testId,
}: {
  text: string;
  label?: string;
  ariaLabel?: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant="ghost"
      data-testid={testId}
      aria-label={ariaLabel}
      title={ariaLabel}
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}

/** A shell command shown as text with a copy button (`copyLabel` names it for screen readers). */
export function CommandLine({
  command,
  testId = 'cli-command',
  copyLabel = 'Copy the command',
  caption,
}: {
  command: string;
  testId?: string;
  copyLabel?: string;
  caption?: string;
}) {
  return (
    <div className="grid gap-1">
      {caption ? <span className="text-xs text-zinc-600 dark:text-zinc-400">{caption}</span> : null}
      <div className="flex items-start gap-2 rounded-md bg-zinc-100 px-3 py-2 dark:bg-zinc-950">
        <code data-testid={testId} className="flex-1 font-mono text-xs break-all whitespace-pre-wrap">
          {command}
        </code>
        <CopyButton text={command} label="Copy" ariaLabel={copyLabel} testId={`${testId}-copy`} />
      </div>
    </div>
  );
}
