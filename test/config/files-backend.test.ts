// SLUICE_FILES_BACKEND and the S3 variables: a wrong or missing value stops start-up with a message naming the
// variable, instead of surfacing at the first upload.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const S3 = { SLUICE_FILES_BACKEND: 's3', SLUICE_S3_BUCKET: 'sluice-files', AWS_REGION: 'eu-west-1' };

describe('files backend configuration', () => {
  it('defaults to the local disk', () => {
    expect(loadConfig({}).files).toEqual({ backend: 'local' });
  });

  it('reads the bucket, prefix, endpoint, path style, region and credentials for s3', () => {
    const files = loadConfig({
      ...S3,
      SLUICE_S3_PREFIX: '/sluice/files/',
      SLUICE_S3_ENDPOINT: 'http://minio:9000',
      SLUICE_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret-example',
    }).files;
    expect(files).toEqual({
      backend: 's3',
      s3: {
        bucket: 'sluice-files',
        prefix: 'sluice/files',
        endpoint: 'http://minio:9000',
        forcePathStyle: true,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-example', sessionToken: undefined },
        checksumCalculation: 'WHEN_REQUIRED',
      },
    });
  });

  it('leaves credentials to the SDK chain when none are given, and lets an endpoint stand in for the region', () => {
    const files = loadConfig({ SLUICE_FILES_BACKEND: 's3', SLUICE_S3_BUCKET: 'b12', SLUICE_S3_ENDPOINT: 'https://s3.example.com' }).files;
    expect(files).toMatchObject({ backend: 's3', s3: { region: 'us-east-1', credentials: undefined, prefix: '', forcePathStyle: false } });
  });

  it.each([
    [{ SLUICE_FILES_BACKEND: 'gcs' }, 'SLUICE_FILES_BACKEND must be local or s3'],
    [{ SLUICE_FILES_BACKEND: 's3' }, 'SLUICE_S3_BUCKET is required when SLUICE_FILES_BACKEND=s3'],
    [{ ...S3, SLUICE_S3_BUCKET: 'My_Bucket' }, 'SLUICE_S3_BUCKET must be a bucket name'],
    [{ ...S3, AWS_REGION: undefined }, 'AWS_REGION is required when SLUICE_FILES_BACKEND=s3 without SLUICE_S3_ENDPOINT'],
    [{ ...S3, SLUICE_S3_ENDPOINT: 'minio:9000' }, 'SLUICE_S3_ENDPOINT must be an http(s) URL'],
    [{ ...S3, SLUICE_S3_PREFIX: 'a/../b' }, 'SLUICE_S3_PREFIX must be a key prefix'],
    [{ ...S3, SLUICE_S3_PREFIX: 'a//b' }, 'SLUICE_S3_PREFIX must be a key prefix'],
    [{ ...S3, SLUICE_S3_FORCE_PATH_STYLE: 'maybe' }, 'SLUICE_S3_FORCE_PATH_STYLE'],
    [{ ...S3, AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, 'AWS_SECRET_ACCESS_KEY is required when AWS_ACCESS_KEY_ID is set'],
    [{ ...S3, AWS_SECRET_ACCESS_KEY: 'x' }, 'AWS_ACCESS_KEY_ID is required when AWS_SECRET_ACCESS_KEY is set'],
    [{ ...S3, AWS_REQUEST_CHECKSUM_CALCULATION: 'ALWAYS' }, 'AWS_REQUEST_CHECKSUM_CALCULATION must be WHEN_SUPPORTED or WHEN_REQUIRED'],
    [{ SLUICE_S3_BUCKET: 'sluice-files' }, 'SLUICE_S3_BUCKET is set but SLUICE_FILES_BACKEND is local'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${message}`);
  });
});
