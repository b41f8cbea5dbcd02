'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ErrorBox } from '@/components/ui/states';
import type { WebhookStatus } from '@/lib/alerts/webhook-schema';
import { ApiError, describeError, postJson } from '@/lib/client/api';
import { formFields } from './alerts-types';
import { TextField } from './field';

const ORIGIN: Record<WebhookStatus['origin'], string> = {
  console: 'set in the console',
  config: 'from the config file',
  none: 'not set',
};

/**
 * The optional webhook: what is set (never the URL or the secret: they are write-only), a form
 * that replaces it, removal, and "send test". Saving always asks for the URL again.
 */
export function WebhookCard({ status, canEdit, onChanged }: { status: WebhookStatus; canEdit: boolean; onChanged: () => void }) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [interval, setEvery] = useState(String(status.minIntervalSeconds ?? 300));
  const [resolved, setResolved] = useState(status.sendResolved ?? true);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  async function run(path: string, body: unknown, done: (r: unknown) => string) {
    setError(null);
    setNote(null);
    setFields({});
    try {
      setNote(done(await postJson(path, body)));
      onChanged();
    } catch (e) {
      if (e instanceof ApiError && e.fields) setFields(formFields(e.fields, ''));
      setError(describeError(e));
    }
  }
  const save = () =>
    run(
      '/api/alerts/webhook',
      { url, ...(secret ? { secret } : {}), minIntervalSeconds: Number(interval), sendResolved: resolved },
      () => (setUrl(''), setSecret(''), 'Saved. The address and the secret are not shown again.'),
    );
  const test = () =>
    run('/api/alerts/webhook/test', {}, (r) => {
      const t = r as { ok: boolean; status: number | null; attempts: number; error: string | null };
      return t.ok ? `Test sent: the receiver answered HTTP ${t.status}.` : `Test not delivered: ${t.error ?? 'unknown'}.`;
    });
  return (
    <Card testId="alert-webhook">
      <CardHeader title="Webhook (Slack-compatible)" />
      <div className="grid gap-3 p-4 text-sm">
        <p data-testid="alert-webhook-status">
          {status.configured
            ? `A webhook is ${ORIGIN[status.origin]}${status.secretSet ? ', with a signing secret' : ''}: at most one message per target every ${status.minIntervalSeconds} s${status.sendResolved ? ', resolved ones too' : ''}.`
            : 'No webhook is set: targets show here and in /metrics only.'}
          {status.updatedBy ? ` Last changed by ${status.updatedBy}.` : ''}
        </p>
        {canEdit ? (
          <form className="grid gap-3 sm:grid-cols-2" onSubmit={(e) => (e.preventDefault(), void save())} data-testid="alert-webhook-form">
            <TextField
              label={status.configured ? 'New address (the current one stays hidden)' : 'Address'}
              error={fields.url}
              name="url"
              secret
              value={url}
              onChange={setUrl}
            />
            <TextField
              label="Signing secret (optional, write-only)"
              error={fields.secret}
              name="secret"
              secret
              value={secret}
              onChange={setSecret}
            />
            <TextField
              label="At most one message per target every … seconds"
              error={fields.minIntervalSeconds}
              name="minIntervalSeconds"
              value={interval}
              onChange={setEvery}
            />
            <label className="flex items-center gap-2 self-end">
              <input
                type="checkbox"
                checked={resolved}
                onChange={(e) => setResolved(e.target.checked)}
                data-testid="alert-webhook-resolved"
              />
              Also send when a target is resolved
            </label>
            <div className="flex flex-wrap gap-2 sm:col-span-2">
              <Button type="submit" variant="primary" data-testid="alert-webhook-save">
                Save webhook
              </Button>
              <Button onClick={() => void test()} disabled={!status.configured} data-testid="alert-webhook-test">
                Send test
              </Button>
              <Button
                variant="danger"
                onClick={() => void run('/api/alerts/webhook/remove', {}, () => 'Removed.')}
                disabled={status.origin !== 'console'}
                data-testid="alert-webhook-remove"
              >
                Remove
              </Button>
            </div>
          </form>
        ) : null}
        {note ? <p data-testid="alert-webhook-note">{note}</p> : null}
        {error ? <ErrorBox {...error} /> : null}
      </div>
    </Card>
  );
}
