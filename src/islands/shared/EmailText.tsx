import { Fragment } from 'react';

/**
 * An e-mail address that may wrap only where a reader expects it to: after the '@' and before
 * each dot, never in the middle of a word ("hannah@kelham<br>books.example" reads as two words).
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=\.)|(?<=@)/);
  return (
    <span className="break-normal">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
