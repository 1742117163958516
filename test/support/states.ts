// Small workflow states used across HTTP tests.
export function echoState(field = 'q') {
  return {
    blocks: {
      start: {
        id: 'start',
        type: 'api_trigger',
        name: 'API',
        position: { x: 0, y: 0 },
        config: { inputFormat: [{ name: field, type: 'string' }] },
      },
      respond: {
        id: 'respond',
        type: 'response',
        name: 'Respond',
        position: { x: 200, y: 0 },
        config: { status: 200, body: { echoed: `<api.${field}>` } },
      },
    },
    edges: [{ id: 'e1', source: 'start', target: 'respond' }],
    loops: {},
    parallels: {},
  };
}
