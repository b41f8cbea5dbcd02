import { checkKwargNames, EditError } from '@/lib/pyvalues/typed-edit';
import { ConsoleError } from './errors';

/** An edit's keyword names checked (named, none twice): a bad one is InvalidInput under its field. */
export function checkEditKwargNames(kwargs: Array<[string, unknown]>): void {
  try {
    checkKwargNames(kwargs);
  } catch (e) {
    if (e instanceof EditError) throw new ConsoleError('InvalidInput', e.message, { [e.field]: e.message.slice(e.field.length + 2) });
    throw e;
  }
}
