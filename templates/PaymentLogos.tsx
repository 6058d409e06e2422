/**
 * The five payment brands as small inline SVG badges (a wordmark on the brand's colour), so the
 * footer needs no image download. Each carries its name as accessible text.
 */
const brands: Record<string, { name: string; bg: string; fg: string; text: string }> = {
  visa: { name: 'Visa', bg: '#1a1f71', fg: '#ffffff', text: 'VISA' },
  mastercard: { name: 'Mastercard', bg: '#252525', fg: '#ffffff', text: 'mastercard' },
  paypal: { name: 'PayPal', bg: '#ffffff', fg: '#003087', text: 'PayPal' },
  'apple-pay': { name: 'Apple Pay', bg: '#000000', fg: '#ffffff', text: 'Apple Pay' },
  'google-pay': { name: 'Google Pay', bg: '#ffffff', fg: '#3c4043', text: 'G Pay' },
};

export function PaymentLogos({ brandIds }: { brandIds: string[] }) {
  return (
    <ul className="payments" aria-label="Payment methods we accept">
      {brandIds.map((id) => {
        const brand = brands[id];
        if (!brand) return null;
        return (
          <li key={id}>
            <svg width="64" height="40" viewBox="0 0 64 40" role="img" aria-label={brand.name}>
              <rect x="0.5" y="0.5" width="63" height="39" rx="6" fill={brand.bg} stroke="#d0d5dd" />
              {id === 'mastercard' ? (
                <>
                  <circle cx="26" cy="17" r="9" fill="#eb001b" />
                  <circle cx="38" cy="17" r="9" fill="#f79e1b" fillOpacity="0.9" />
                  <text x="32" y="34" textAnchor="middle" fontSize="7" fill={brand.fg} fontFamily="Arial, sans-serif">
                    {brand.text}
                  </text>
                </>
              ) : (
                <text
                  x="32"
                  y="25"
                  textAnchor="middle"
                  fontSize={id === 'visa' ? 15 : 12}
                  fontWeight="700"
                  fontStyle={id === 'visa' ? 'italic' : 'normal'}
                  fill={brand.fg}
                  fontFamily="Arial, sans-serif"
                >
                  {brand.text}
                </text>
              )}
            </svg>
          </li>
        );
      })}
    </ul>
  );
}
