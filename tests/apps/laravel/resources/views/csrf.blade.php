<form method="POST" action="/csrf-form"><input type="hidden" name="_token" value="{{ csrf_token() }}"><input name="name"></form>
