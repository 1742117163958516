// Inputs cross into the sandbox as one JSON text, never as source: a value such as `"); process.exit(1); ("` stays a
// string. One text (rather than one per input) because the host must copy it into the instance's heap before any
// of it is parsed, and that copy is safest while the fresh heap is still empty.

export type EncodedInputs = { json: string } | { error: string };

export function encodeInputs(inputs: Record<string, unknown>): EncodedInputs {
  const members: string[] = [];
  // JSON cannot carry undefined, but `undefined` is still a meaningful value for a declared input.
  const undefinedNames: string[] = [];
  for (const [name, value] of Object.entries(inputs)) {
    if (value === undefined) {
      undefinedNames.push(name);
      continue;
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      return { error: `Input "${name}" is not JSON-serializable: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (json === undefined) return { error: `Input "${name}" is not JSON-serializable (${typeof value})` };
    members.push(`${JSON.stringify(name)}:${json}`);
  }
  return { json: `{"values":{${members.join(',')}},"undefinedNames":${JSON.stringify(undefinedNames)}}` };
}
