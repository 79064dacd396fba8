// ua-parser-js 1.x ships no types; only the part the gateway uses is declared.
declare module 'ua-parser-js' {
  interface UAResult {
    browser: { name?: string; version?: string; major?: string };
    engine: { name?: string; version?: string };
  }
  class UAParser {
    constructor(ua?: string);
    getResult(): UAResult;
  }
  export default UAParser;
}
