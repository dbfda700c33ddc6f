import { describe, expect, it } from 'vitest';
import { amzDate, signature, signRequest, uriEncode } from '../../src/lib/sigv4';

// AWS's published Signature Version 4 test suite (aws-sig-v4-test-suite): its example
// credentials, date, region and service, and the signatures it gives for each request.

const CREDS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const SCOPE = { region: 'us-east-1', service: 'service' };
const HEADERS = { host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z' };
const sign = (method: string, url: string) => signature({ method, url: new URL(url), headers: HEADERS }, CREDS, SCOPE);

describe('SigV4 against AWS test suite vectors', () => {
  it('get-vanilla', () => {
    expect(sign('GET', 'https://example.amazonaws.com/')).toEqual({
      signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
      signedHeaders: 'host;x-amz-date', credentialScope: '20150830/us-east-1/service/aws4_request',
    });
  });

  it('get-vanilla-query-order-key-case: the query is sorted', () => {
    expect(sign('GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1').signature)
      .toBe('b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500');
  });

  it('post-vanilla: an empty body hashes as the empty string', () => {
    expect(sign('POST', 'https://example.amazonaws.com/').signature).toBe('5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b');
  });

  it('get-utf8: a path segment is percent-encoded once', () => {
    expect(sign('GET', 'https://example.amazonaws.com/ሴ').signature).toBe('8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85');
  });

  it('signRequest adds host, x-amz-date and an Authorization header in AWS form', () => {
    const headers = signRequest({ method: 'GET', url: new URL('https://example.amazonaws.com/'), headers: {} }, CREDS, SCOPE, new Date('2015-08-30T12:36:00Z'));
    expect(headers).toMatchObject({ host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z' });
    expect(headers.authorization).toBe('AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it('encodes as RFC 3986 and formats the date as AWS does', () => {
    expect(uriEncode("a b!*'()~._-")).toBe('a%20b%21%2A%27%28%29~._-');
    expect(amzDate(new Date('2015-08-30T12:36:00.123Z'))).toBe('20150830T123600Z');
  });
});
