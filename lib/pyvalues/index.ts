// Python values as a worker receives them from JSON, shared by every system whose workers are
// Python (potatoq, Celery): Python's JSON reader, the value tree (PyVal), Python's texts of it
// (repr, str, reasons) and the bounded view the console shows. Client-safe: no server imports.
export { parseJson, PyJsonError, PY_MAX_JSON_DEPTH, type JsonNode } from './json';
export { pyFloatRepr, pyJsonFloat } from './pyfloat';
export { plainPy, type PyVal } from './pyval';
export { pyToTyped, type TypedLimits } from './typed';
export { reasonSummary, reasonSummaryFull } from './reason';
export { decodeUtf8 } from './utf8';
export { checkKwargNames, EditError, typedToPy } from './typed-edit';
