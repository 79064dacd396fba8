// node:sqlite is marked experimental in Node 24 and says so on every start. That line is noise for
// operators (and looks like an error in the gateway's output); every other warning still prints.
const printWarnings = process.listeners('warning');
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /SQLite/i.test(warning.message)) return;
  for (const listener of printWarnings) listener(warning);
});
