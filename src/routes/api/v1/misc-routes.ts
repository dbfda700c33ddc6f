import { get, group, post, type RouteGroup } from '../../table';
import { anyone, signedInOnly } from './route-chains';
import { lazyModule } from '../../lazy';

// Handler modules load with the first request one of their routes serves (lazy.ts).
const federation = lazyModule(() => import('./federation'));
const markdown = lazyModule(() => import('./markdown'));
const misc = lazyModule(() => import('./misc'));
const signing = lazyModule(() => import('./signing'));
const templates = lazyModule(() => import('./templates'));

// Instance-wide answers: version, signing keys, federation, settings, templates and markup rendering.

export const miscRoutes: RouteGroup[] = [
  group({ name: 'anyone', guards: anyone }, [
    get('/version', { id: 'getVersion', tag: 'miscellaneous', summary: 'The server\'s version', responses: { 200: 'ServerVersion' } }, misc.getVersion),
    get('/signing-key.gpg', {
      id: 'getSigningKey', tag: 'miscellaneous', summary: 'The instance\'s public GPG key that signs commits it makes',
      responses: { 200: { type: 'string' } }, produces: ['text/plain'],
    }, signing.signingKeyGpg),
    get('/signing-key.pub', {
      id: 'getSigningKeySSH', tag: 'miscellaneous', summary: 'The instance\'s public SSH key that signs commits it makes',
      responses: { 200: { type: 'string' } }, produces: ['text/plain'],
    }, signing.signingKeySsh),
    get('/nodeinfo', {
      id: 'getNodeInfo', tag: 'miscellaneous', summary: 'Instance metadata in the NodeInfo 2.1 format', responses: { 200: 'NodeInfo' },
    }, federation.federationOn, federation.getNodeInfo),
    get('/activitypub/user-id/{user-id}', {
      id: 'activitypubPerson', tag: 'activitypub', summary: 'A user as an ActivityPub Person', params: { 'user-id': 'integer' },
      responses: { 200: 'ActivityPub' },
    }, federation.federationOn, federation.getPerson),
    post('/activitypub/user-id/{user-id}/inbox', {
      id: 'activitypubPersonInbox', tag: 'activitypub', summary: 'Deliver a signed ActivityPub activity to a user',
      params: { 'user-id': 'integer' }, responses: { 204: null },
    }, federation.federationOn, federation.postInbox),
    get('/settings/api', {
      id: 'getGeneralAPISettings', tag: 'settings', summary: 'Limits the API applies (page sizes, blob sizes)',
      responses: { 200: 'GeneralAPISettings' },
    }, misc((m) => m.getSettings('api'))),
    get('/settings/attachment', {
      id: 'getGeneralAttachmentSettings', tag: 'settings', summary: 'Whether attachments are on, their size limit and allowed types',
      responses: { 200: 'GeneralAttachmentSettings' },
    }, misc((m) => m.getSettings('attachment'))),
    get('/settings/repository', {
      id: 'getGeneralRepositorySettings', tag: 'settings', summary: 'Which repository features are switched off instance-wide',
      responses: { 200: 'GeneralRepoSettings' },
    }, misc((m) => m.getSettings('repository'))),
    get('/settings/ui', {
      id: 'getGeneralUISettings', tag: 'settings', summary: 'Themes and reactions the web interface offers',
      responses: { 200: 'GeneralUISettings' },
    }, misc((m) => m.getSettings('ui'))),
    get('/gitignore/templates', {
      id: 'listGitignoresTemplates', tag: 'miscellaneous', summary: 'Names of the .gitignore templates a new repository can start from',
      responses: { 200: { type: 'array', items: { type: 'string' } } },
    }, templates.gitignoreList),
    get('/gitignore/templates/{name}', {
      id: 'getGitignoreTemplateInfo', tag: 'miscellaneous', summary: 'One .gitignore template\'s text',
      responses: { 200: 'GitignoreTemplateInfo' },
    }, templates.gitignoreInfo),
    get('/licenses', {
      id: 'listLicenseTemplates', tag: 'miscellaneous', summary: 'Licences a new repository can start with',
      responses: { 200: ['LicensesTemplateListEntry'] },
    }, templates.licenseList),
    get('/licenses/{name}', {
      id: 'getLicenseTemplateInfo', tag: 'miscellaneous', summary: 'One licence\'s text', responses: { 200: 'LicenseTemplateInfo' },
    }, templates.licenseInfo),
    get('/label/templates', {
      id: 'listLabelTemplates', tag: 'miscellaneous', summary: 'Names of the label sets a repository can start with',
      responses: { 200: { type: 'array', items: { type: 'string' } } },
    }, templates.labelTemplateList),
    get('/label/templates/{name}', {
      id: 'getLabelTemplateInfo', tag: 'miscellaneous', summary: 'The labels of one label set', responses: { 200: ['LabelTemplate'] },
    }, templates.labelTemplateInfo),
  ]),
  group({ name: 'signed in only', guards: signedInOnly }, [
    post('/markdown', {
      id: 'renderMarkdown', tag: 'miscellaneous', summary: 'Markdown to HTML, with links resolved in a repository\'s context',
      body: 'MarkdownOption', responses: { 200: { type: 'string' } }, produces: ['text/html'],
    }, markdown.markdown),
    post('/markdown/raw', {
      id: 'renderMarkdownRaw', tag: 'miscellaneous', summary: 'Markdown sent as the plain body to HTML', body: { of: { type: 'string' }, required: true }, consumes: ['text/plain'],
      responses: { 200: { type: 'string' } }, produces: ['text/html'],
    }, markdown.markdownRaw),
    post('/markup', {
      id: 'renderMarkup', tag: 'miscellaneous', summary: 'A markup file to HTML, chosen by its file name', body: 'MarkupOption',
      responses: { 200: { type: 'string' } }, produces: ['text/html'],
    }, markdown.markup),
  ]),
];
