// LoopBack 3 ships no type declarations; the test upstream talks to it as the plain JavaScript API its docs describe.
declare module 'loopback' {
  const loopback: any;
  export default loopback;
}
