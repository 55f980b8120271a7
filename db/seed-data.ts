// The demo data of `npm run db:seed` (db/seed.ts): bookings at every step, published reviews and
// open enquiries, invented but believable, in the places and prices the site really serves.

export interface DemoBooking {
  firstName: string;
  lastName: string;
  businessName: string;
  email: string;
  phone: string;
  quantity: number;
  workType: 'day' | 'night';
  preferredDate: string;
  step: number;
  status: string;
  paid: boolean;
  locations: { address: string; lat: number; lng: number }[];
  /** The brand files the customer attached (their names; a drawn stand-in image is stored). */
  brandFiles?: string[];
}

export const DEMO_BOOKINGS: DemoBooking[] = [
  {
    firstName: 'Priya', lastName: 'Shah', businessName: 'Northern Roast Coffee', email: 'priya@northernroast.example',
    phone: '0161 496 0311', quantity: 10, workType: 'day', preferredDate: '2026-07-14', step: 5, status: 'completed', paid: true,
    brandFiles: ['northern-roast-logo.png'],
    locations: [
      { address: 'Market Street, Manchester M1 1PT', lat: 53.4823, lng: -2.2389 },
      { address: 'Oldham Street, Manchester M4 1LE', lat: 53.4842, lng: -2.2336 },
    ],
  },
  {
    firstName: 'Tom', lastName: 'Birchall', businessName: 'Kirkgate Cycles', email: 'tom@kirkgatecycles.example',
    phone: '0113 496 0472', quantity: 5, workType: 'day', preferredDate: '2026-08-03', step: 5, status: 'completed', paid: true,
    locations: [{ address: 'Briggate, Leeds LS1 6HD', lat: 53.7986, lng: -1.5418 }],
  },
  {
    firstName: 'Aisha', lastName: 'Okafor', businessName: 'Baltic Yoga Studio', email: 'aisha@balticyoga.example',
    phone: '0151 496 0185', quantity: 12, workType: 'night', preferredDate: '2026-09-18', step: 4, status: 'confirmed', paid: true,
    locations: [
      { address: 'Jamaica Street, Liverpool L1 0AF', lat: 53.3968, lng: -2.9809 },
      { address: 'Bold Street, Liverpool L1 4DS', lat: 53.4024, lng: -2.9793 },
    ],
  },
  {
    firstName: 'Gareth', lastName: 'Lowe', businessName: 'Quayside Gin Co.', email: 'gareth@quaysidegin.example',
    phone: '0191 496 0824', quantity: 10, workType: 'night', preferredDate: '2027-07-09', step: 2, status: 'confirmed', paid: true,
    locations: [{ address: 'Quayside, Newcastle upon Tyne NE1 3DX', lat: 54.9686, lng: -1.6053 }],
  },
  {
    firstName: 'Hannah', lastName: 'Whitworth', businessName: 'Kelham Island Books', email: 'hannah@kelhambooks.example',
    phone: '0114 496 0937', quantity: 5, workType: 'day', preferredDate: '2027-07-21', step: 1, status: 'pending', paid: false,
    locations: [{ address: 'Alma Street, Sheffield S3 8SA', lat: 53.3893, lng: -1.4681 }],
  },
  {
    firstName: 'Test', lastName: 'Booking', businessName: 'Demo Ltd', email: 'test@example.com',
    phone: '0000 000000', quantity: 5, workType: 'day', preferredDate: '2027-08-02', step: 1, status: 'pending', paid: false,
    locations: [{ address: 'Test Street, Bradford BD1 1AA', lat: 53.7938, lng: -1.7524 }],
  },
];

export const DEMO_REVIEWS = [
  { customerName: 'Priya S.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 5, submittedAt: '2026-07-24T10:12:00Z', reviewText: 'Our coffee cup logo on Market Street stopped people in their tracks. Footfall was up the week it went down, and the photos were ready the same evening.' },
  { customerName: 'Tom B.', rating: 5, serviceQuality: 5, timeliness: 4, communication: 5, submittedAt: '2026-08-12T16:40:00Z', reviewText: 'Five patches outside the shop and on Briggate. Crisp edges, zero mess, and the council had no complaints because it is just water.' },
  { customerName: 'Laura M.', rating: 4, serviceQuality: 4, timeliness: 5, communication: 4, submittedAt: '2026-08-29T09:05:00Z', reviewText: 'Great for our festival wayfinding. The stencils looked sharp on the dirtier slabs; a couple on cleaner paving were fainter, which the team warned us about.' },
  { customerName: 'Daniel K.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 5, submittedAt: '2026-09-10T13:22:00Z', reviewText: 'Booked on a Monday, stencil approved on Wednesday, installed the next week. Tracking page kept our whole team in the loop.' },
  { customerName: 'Aisha O.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 4, submittedAt: '2026-09-28T19:48:00Z', reviewText: 'The night install meant no disruption to the morning rush, and by 8am our studio logo was the talk of Jamaica Street.' },
  { customerName: 'Rob H.', rating: 4, serviceQuality: 4, timeliness: 4, communication: 5, submittedAt: '2026-10-06T11:31:00Z', reviewText: 'Clever, cheap compared with posters and properly eco. We will book again for the Christmas launch.' },
  { customerName: 'Sophie T.', rating: 5, serviceQuality: 5, timeliness: 5, communication: 5, submittedAt: '2026-10-19T15:02:00Z', reviewText: 'Our students loved spotting the logos around campus. Clear pricing, quick replies and great photos for our socials.' },
  { customerName: 'Imran A.', rating: 5, serviceQuality: 5, timeliness: 4, communication: 5, submittedAt: '2026-11-02T08:57:00Z', reviewText: 'Ten patches across two streets for our restaurant opening. Looked like art, not advertising, which is exactly what we wanted.' },
];

export const DEMO_ENQUIRIES = [
  { firstName: 'Megan', lastName: 'Clarke', email: 'megan@lanternevents.example', phone: '0161 496 0555', inquiryType: 'Bulk/Enterprise', message: 'We run three food festivals next summer and would like around 60 patches across Manchester and Leeds. Could you quote?' },
  { firstName: 'Oliver', lastName: 'Grant', email: 'oliver.grant@example.org', phone: null, inquiryType: 'July Special Booking', message: 'Is the July special still available for a 10-patch booking in Preston?' },
  { firstName: 'Chloe', lastName: 'Ng', email: 'chloe@brightside.example', phone: '0113 496 0222', inquiryType: 'Partnership', message: 'We are a creative agency in Leeds and would love to offer reverse graffiti to our clients.' },
];
