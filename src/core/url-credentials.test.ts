import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactUrlCredentials } from './url-credentials.js';

describe('redactUrlCredentials', () => {
  it('masks a password, keeping the user name', () => {
    assert.equal(redactUrlCredentials('redis://user:secret@host:6379/0'), 'redis://user:redacted@host:6379/0');
    assert.equal(redactUrlCredentials('https://user:secret@rates.example/latest.json'), 'https://user:redacted@rates.example/latest.json');
  });

  it('masks a user name that comes alone (a token)', () => {
    assert.equal(redactUrlCredentials('https://ghp_token@rates.example/latest.json'), 'https://redacted@rates.example/latest.json');
  });

  it('leaves other strings as they are', () => {
    for (const s of ['https://rates.example/latest.json', 'someone@example.com', 'not a url', 'https://host/?to=a@b', '']) assert.equal(redactUrlCredentials(s), s);
  });

  it('masks the user info of what starts like a URL but does not parse', () => {
    assert.equal(redactUrlCredentials('https://user:pass@ rates.example/x'), 'https://redacted@ rates.example/x');
    assert.equal(redactUrlCredentials('https://user:p@ss@ bad/x'), 'https://redacted@ bad/x');
    assert.equal(redactUrlCredentials('https://token@'), 'https://redacted@');
  });
});
