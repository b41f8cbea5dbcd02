'use client';
import type { EnqueueDecl, EnqueueFieldDecl } from '@/lib/brokers/schema';
import { formatUtc } from '@/lib/text/format';
import { Field, JsonField } from './fields';
import { localToIso, type FormValues } from './form-model';

type Props = {
  decl: EnqueueDecl;
  v: FormValues;
  setValue: (key: string, text: string) => void;
  choose: (group: string, key: string) => void;
  err: (key: string) => string | undefined;
};

/** The adapter's declared enqueue fields, each with the input its kind calls for. */
export function DeclaredFields({ decl, v, setValue, choose, err }: Props) {
  // Fields in declared order; an exclusive group where its first member is declared.
  const main = decl.fields.filter((f) => (f.exclusive ? decl.fields.find((x) => x.exclusive === f.exclusive) === f : !f.advanced));
  const advanced = decl.fields.filter((f) => f.advanced && !f.exclusive);
  return (
    <>
      {main.map((f) =>
        f.exclusive ? (
          <Group key={f.exclusive} group={f.exclusive} decl={decl} v={v} setValue={setValue} choose={choose} err={err} />
        ) : (
          <OneField key={f.key} f={f} v={v} setValue={setValue} err={err} decl={decl} />
        ),
      )}
      {advanced.length ? (
        <details className="text-sm" open={advanced.some((f) => !!err(f.key))}>
          <summary className="cursor-pointer font-medium">More options</summary>
          <div className="mt-2 grid gap-4">
            {advanced.map((f) => (
              <OneField key={f.key} f={f} v={v} setValue={setValue} err={err} decl={decl} />
            ))}
          </div>
        </details>
      ) : null}
    </>
  );
}

/** Alternatives (potatoq: countdown or eta): one radio each, next to "Now", and the chosen input. */
function Group({ group: g, decl, v, setValue, choose, err }: Props & { group: string }) {
  const members = decl.fields.filter((f) => f.exclusive === g);
  const chosen = members.find((f) => f.key === v.chosen[g]);
  return (
    <fieldset className="grid content-start gap-1 text-sm">
      <legend className="mb-1 font-medium">{g}</legend>
      <div className="flex flex-wrap gap-3">
        {[null, ...members].map((f) => (
          <label key={f?.key ?? ''} className="flex items-center gap-1">
            <input
              type="radio"
              name={`group-${g}`}
              checked={(v.chosen[g] ?? '') === (f?.key ?? '')}
              onChange={() => choose(g, f?.key ?? '')}
              data-testid={`timing-${f?.key ?? 'now'}`}
            />
            {f ? f.label : members.some((m) => m.schedules) ? 'Now' : 'None'}
          </label>
        ))}
      </div>
      {chosen ? <OneField f={chosen} v={v} setValue={setValue} err={err} decl={decl} /> : null}
    </fieldset>
  );
}

function OneField({ f, v, setValue, err, decl }: { f: EnqueueFieldDecl } & Omit<Props, 'choose'>) {
  const value = v.values[f.key] ?? '';
  const error = err(f.key);
  const label = f.required ? `${f.label} *` : f.label;
  if (f.kind === 'json-list' || f.kind === 'json-object') {
    return (
      <JsonField
        label={label}
        name={f.key}
        value={value}
        onChange={(t) => setValue(f.key, t)}
        error={error}
        hint={f.help}
        container={f.kind === 'json-list' ? 'list' : 'object'}
        rows={f.advanced ? 2 : 4}
        typed={f.typed ? decl.typed : undefined}
      />
    );
  }
  const iso = f.kind === 'datetime' ? localToIso(value) : null;
  const hint = f.kind === 'datetime' && iso ? `= ${formatUtc(iso)}` : f.help;
  return (
    <Field label={label} name={f.key} error={error} hint={hint}>
      <input
        id={`f-${f.key}`}
        name={f.key}
        className="input"
        type={f.kind === 'datetime' ? 'datetime-local' : 'text'}
        step={f.kind === 'datetime' ? 1 : undefined}
        inputMode={f.kind === 'integer' ? 'numeric' : f.kind === 'duration' ? 'decimal' : undefined}
        placeholder={f.placeholder}
        value={value}
        onChange={(e) => setValue(f.key, e.target.value)}
        aria-invalid={!!error}
        aria-describedby={error ? `error-${f.key}` : undefined}
        data-testid={`enqueue-${f.key}`}
      />
    </Field>
  );
}
