// Licence texts keep the placeholders of their SPDX/Gitea versions; a new repository's LICENSE
// gets them filled the way Gitea does (modules/repository/license.go): owner, email, repository
// name and year, line by line.

export type LicenseValues = { owner: string; email: string; repo: string; year: string };

type Placeholders = { owner: string[]; email: string[]; repo: string[]; year: string[]; matchLine?: RegExp };

const UNIVERSAL: Placeholders = {
  owner: [
    '<name of author>', '<owner>', '[NAME]', '[name of copyright owner]', '[name of copyright holder]',
    '<COPYRIGHT HOLDERS>', '<copyright holders>', '<AUTHOR>', '<author\'s name or designee>',
    '[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]',
  ],
  email: ['[EMAIL]'],
  repo: ['<program>', '<one line to give the program\'s name and a brief idea of what it does.>'],
  year: ['<year>', '[YEAR]', '{YEAR}', '[yyyy]', '[Year]', '[year]'],
};

// Words that are placeholders only in one licence, and only on one line of it.
const SPECIAL: Record<string, Placeholders> = {
  '0BSD': { owner: ['AUTHOR'], email: ['EMAIL'], repo: [], year: ['YEAR'], matchLine: /Copyright \(C\) YEAR by AUTHOR EMAIL/ },
};

export function fillLicense(name: string, text: string, values: LicenseValues): string {
  const p = SPECIAL[name] ?? UNIVERSAL;
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => {
    if (p.matchLine && !p.matchLine.test(line)) return `${line}\n`;
    let out = line;
    for (const v of p.owner) out = out.replaceAll(v, values.owner);
    for (const v of p.email) out = out.replaceAll(v, values.email);
    for (const v of p.repo) out = out.replaceAll(v, values.repo);
    for (const v of p.year) out = out.replaceAll(v, values.year);
    return `${out}\n`;
  }).join('');
}
