/** A `curl` command shown in a fenced block of a markdown file. */
export interface CurlExample {
  readonly where: string;
  readonly method: string;
  readonly url: URL;
  readonly body?: string;
}

/**
 * The words of a shell script, command by command: single and double quotes (across lines too),
 * backslash-newline continuations and `#` comments, which is all the docs' examples use.
 */
const shellCommands = (script: string): string[][] => {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i]!;
    if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end === -1) throw new Error('unclosed single quote');
      word = (word ?? '') + script.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      for (; j < script.length && script[j] !== '"'; j++) text += script[j] === '\\' && j + 1 < script.length ? script[++j] : script[j];
      word = (word ?? '') + text;
      i = j;
    } else if (c === '\\' && script[i + 1] === '\n') {
      endWord();
      i++;
    } else if (c === '#' && word === undefined) {
      const end = script.indexOf('\n', i);
      i = (end === -1 ? script.length : end) - 1;
    } else if (c === '\n' || c === ';') {
      endWord();
      if (words.length > 0) commands.push(words);
      words = [];
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else {
      word = (word ?? '') + c;
    }
  }
  endWord();
  if (words.length > 0) commands.push(words);
  return commands;
};

const FLAGS_WITH_VALUE = new Set(['-X', '--request', '-d', '--data', '--data-raw', '-H', '--header', '-o', '--output']);

/** Every `curl` of the fenced code blocks of `markdown` (`file` names it in messages). */
export const curlExamples = (file: string, markdown: string): CurlExample[] => {
  const examples: CurlExample[] = [];
  // Shell blocks with a curl (```sh, ```bash, ```shell or none): YAML, JSON and diagrams are not scripts.
  for (const block of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)) {
    if (!['', 'sh', 'bash', 'shell'].includes(block[1]!) || !/^\s*curl /m.test(block[2]!)) continue;
    for (const words of shellCommands(block[2]!)) {
      if (words[0] !== 'curl') continue;
      let method: string | undefined;
      let body: string | undefined;
      let target: string | undefined;
      for (let i = 1; i < words.length; i++) {
        const w = words[i]!;
        if (FLAGS_WITH_VALUE.has(w)) {
          const value = words[++i];
          if (w === '-X' || w === '--request') method = value;
          if (w === '-d' || w === '--data' || w === '--data-raw') body = value;
        } else if (!w.startsWith('-')) {
          target = w;
        }
      }
      if (target === undefined) throw new Error(`${file}: a curl without a URL: ${words.join(' ')}`);
      const url = new URL(/^https?:\/\//.test(target) ? target : `http://${target}`);
      examples.push({ where: `${file}: curl ${url.pathname}${url.search}`, method: method ?? (body === undefined ? 'GET' : 'POST'), url, ...(body === undefined ? {} : { body }) });
    }
  }
  return examples;
};
