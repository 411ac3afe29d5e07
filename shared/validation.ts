import { z } from 'zod';

// Plain-words messages for the commonest failures; zod's defaults name types, not people's fields.
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
    if (issue.code === 'invalid_type') return `must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`;
    if (issue.code === 'too_small' && issue.origin === 'string')
      return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
    if (issue.code === 'too_big' && issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
    if (issue.code === 'too_small' && issue.origin === 'number') return `must be at least ${issue.minimum}`;
    if (issue.code === 'too_big' && issue.origin === 'number') return `must be at most ${issue.maximum}`;
    return undefined;
  },
});

export { z };
