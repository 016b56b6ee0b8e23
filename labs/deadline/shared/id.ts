/** This lab's id: its folder's name, in URLs, stored records and the protocol. Copying the folder under a new id changes only this line. */
export const LAB_ID = 'deadline';
