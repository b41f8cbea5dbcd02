import { describe, expect, it } from 'vitest';
import { CELERY_RABBITMQ_MODEL, CELERY_REDIS_MODEL } from '@/lib/brokers/celery/model';
import { POTATOQ_REDIS_MODEL, POTATOQ_TABLE_MODEL } from '@/lib/brokers/potatoq/model';
import { QUEUEFLOW_MODEL } from '@/lib/brokers/queueflow/model';
import { editTypesFor, kwargsWords, typeLabel, type EditType } from './edit-types';

const JSON_ONLY = ['str', 'int', 'float', 'bool', 'null', 'list', 'dict'];

describe('the edit-and-replay editor, as each system declares it', () => {
  it("offers QueueFlow's JSON payload JSON's types only, under its own name", () => {
    const decl = QUEUEFLOW_MODEL.actions.replayEdited;
    expect(editTypesFor(decl?.kinds, 'str')).toEqual(JSON_ONLY);
    expect(kwargsWords(decl)).toEqual({ label: 'Payload (a JSON object)', entry: 'payload key' });
  });

  it("offers Celery kombu's typed values (no set, no timedelta) and potatoq every kind", () => {
    for (const m of [CELERY_REDIS_MODEL, CELERY_RABBITMQ_MODEL]) {
      const types = editTypesFor(m.actions.replayEdited?.kinds, 'str');
      expect(types).toEqual(expect.arrayContaining(['datetime', 'date', 'time', 'uuid', 'decimal', 'bytes']));
      expect(types).not.toContain('set');
      expect(types).not.toContain('timedelta');
      expect(kwargsWords(m.actions.replayEdited).label).toBe('Keyword arguments');
    }
    for (const m of [POTATOQ_TABLE_MODEL, POTATOQ_REDIS_MODEL])
      expect(editTypesFor(m.actions.replayEdited?.kinds, 'str')).toEqual(expect.arrayContaining(['timedelta', 'set', 'bytes', 'decimal']));
  });

  it('still shows the type a value already has where the system does not offer it', () => {
    expect(editTypesFor([], 'decimal')).toEqual([...JSON_ONLY.slice(0, 5), 'decimal', ...JSON_ONLY.slice(5)]);
  });
});

describe('typeLabel', () => {
  it("names JSON's types in JSON's words where the payload is JSON only, and keeps Python's elsewhere", () => {
    expect(['str', 'int', 'float', 'bool', 'list', 'dict'].map((t) => typeLabel(t as EditType, []))).toEqual([
      'string',
      'integer',
      'number',
      'true/false',
      'array',
      'object',
    ]);
    expect(typeLabel('null', [])).toBe('null');
    expect(typeLabel('str', undefined)).toBe('str');
    expect(typeLabel('decimal', undefined)).toBe('Decimal');
    expect(typeLabel('int', ['datetime'])).toBe('int');
  });
});
