import v8 from 'node:v8';

// V8 grows the young generation to 16 MB (semi-spaces of 8 MB) while the API modules load and
// keeps it: 10 MB of resident memory for a process that then mostly idles, 50 MB more under
// load. Holding the semi-spaces at their initial size costs extra scavenges: about 10% on a
// JSON-heavy listing (bench/load), a fair price on a single machine.
// Imported first by main.ts so it applies before the modules load; set at run time, after the
// executable's code cache was accepted (a flag given on the command line would reject it).
v8.setFlagsFromString('--semi-space-growth-factor=1');
